# Where MLML's time goes on enron at missing rate 0.7 (issue 23):
#   Rscript bench/mlml_profile.R
# The instance graph (exact kNN search, O(n^2 d)), the label graph, and the
# projected-gradient solver (O(nnz(S_X) m + n m^2) per step) timed apart, and
# the number of steps; the final objective and the hidden entries' micro AUC
# (MLML_PROFILE_SAVE: a file to save the recovered scores in).
suppressPackageStartupMessages(library(mlss))
root <- Sys.getenv("MLSS_SHARED", file.path("..", "shared"))
dir <- file.path(root, "data", "mulan", "enron")
d <- read_mulan(file.path(dir, "enron.arff"), file.path(dir, "enron.xml"))
y <- mlss:::mask_labels(d$y, 0.7, by = "entry", seed = 2020)$y
cpu <- function(tt) tt[["user.self"]] + tt[["sys.self"]]
t_all <- system.time(fit <- suppressWarnings(mlml(d$x, y)))
t_graph <- system.time(SX <- mlss:::mlml_instance_graph(d$x, 10L))
t_knn <- system.time(mlss:::knn_search(d$x, 10L))
cat("mlml on enron (", nrow(d$x), "x", ncol(d$x), ", m =", ncol(y), ") at rate 0.7:\n",
    " whole fit", cpu(t_all), "s CPU (", t_all[["elapsed"]], "s elapsed),", fit$iter,
    "steps, converged", fit$converged, "\n",
    " instance graph", cpu(t_graph), "s CPU, of which kNN search", cpu(t_knn), "s\n",
    " solver and the rest (difference)", cpu(t_all) - cpu(t_graph), "s CPU,",
    (cpu(t_all) - cpu(t_graph)) / max(fit$iter, 1) * 1000, "ms per step\n")
# the solution reached: the objective at the last iterate, and the hidden
# entries' micro AUC (their true labels against the recovered scores)
hidden <- is.na(y)
sc <- fit$recovered[hidden]
truth <- d$y[hidden]
auc <- (mean(rank(sc)[truth]) - (sum(truth) + 1) / 2) / sum(!truth)
cat("  final objective", format(fit$objective[length(fit$objective)], digits = 12),
    "; hidden-entry micro AUC", format(auc, digits = 6), "\n")
out <- Sys.getenv("MLML_PROFILE_SAVE", "")
if (nzchar(out)) saveRDS(fit$recovered, out)
