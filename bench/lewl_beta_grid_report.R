# The tables of bench/lewl_beta_grid.R from its .rds files (the sets done so
# far): Rscript bench/lewl_beta_grid_report.R [dir]
#  1. per set and beta: the fold fits' iterations (median, range), how many
#     stopped at max_iter, their CPU seconds (sum over the 5 folds x 3 lambda
#     x 2 k fits), the best cvm over lambda and k, its distance below the
#     set's best in units of the best point's se, the best hidden-entry AP;
#  2. per set: the chosen (best) and 1-SE points of candidate beta grids (the
#     engine's rules, best_grid_point() and one_se_point(), on the points'
#     cvm and se restricted to the grid) and their fold fits' CPU;
#  3. the early stop of the paths along beta (path_stops() as cv_mlcrf()
#     uses it, patience 2, margin 3; paths = (lambda, k), walked from the
#     largest beta down, all paths' first points before their second), replayed on
#     the measured cvm and se: the points it would skip and the chosen point.
library(mlss)
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[1] else file.path("bench", "lewl_beta_grid_rds")
sets <- c("emotions", "scene", "yeast", "medical", "enron")
files <- file.path(dir, paste0(sets, ".rds"))
res <- lapply(files[file.exists(files)], readRDS)
order_reg <- function(g) order(-g$beta, -g$lambda, g$k)  # cv_lewl's order
pt <- function(g, i) sprintf("lambda %g beta %g k %d", g$lambda[i], g$beta[i], g$k[i])

cat("## 1. Per beta\n\n")
for (r in res) {
  f <- r$fits[r$fits$fold > 0, ]
  key <- paste(r$grid$lambda, r$grid$beta, r$grid$k)
  ap <- tapply(f$ap, paste(f$lambda, f$beta, f$k), mean)[key]
  best <- r$best
  cat(sprintf("### %s (%d rows, %d features, m = %d): %.0f CPU s in all (load at end %s)\n",
              r$name, r$n, r$p, r$m, r$cpu, paste(strsplit(r$load, " ")[[1]][1:3], collapse = " ")))
  cat(sprintf("best %s: cvm %.4f se %.4f; 1se %s; refit %d iterations\n\n", pt(r$grid, best),
              r$cvm[best], r$cvsd[best], pt(r$grid, r$best_1se),
              r$fits$iterations[r$fits$fold == 0]))
  cat("| beta | iterations median [range] | not converged | fold-fit CPU s | best cvm (lambda, k) | below best, in se | best AP (lambda, k) |\n")
  cat("|---|---|---|---|---|---|---|\n")
  for (b in sort(unique(r$grid$beta))) {
    fb <- f[f$beta == b, ]
    on <- which(r$grid$beta == b)
    i <- on[which.max(r$cvm[on])]
    j <- on[which.max(ap[on])]
    cat(sprintf("| %g | %d [%d-%d] | %d/%d | %.1f | %.4f (%g, %d) | %.2f | %.4f (%g, %d) |\n",
                b, as.integer(median(fb$iterations)), min(fb$iterations), max(fb$iterations),
                sum(!fb$converged), nrow(fb), sum(fb$cpu), r$cvm[i], r$grid$lambda[i],
                r$grid$k[i], (r$cvm[best] - r$cvm[i]) / r$cvsd[best], ap[j],
                r$grid$lambda[j], r$grid$k[j]))
  }
  cat("\nPer point: cvm (se) / mean AP of the hidden training entries\n\n")
  tab <- data.frame(r$grid[, c("lambda", "beta", "k")], cvm = round(r$cvm, 4),
                    se = round(r$cvsd, 4), ap = round(ap, 4),
                    iter = as.integer(tapply(f$iterations, paste(f$lambda, f$beta, f$k), median)[key]))
  print(tab[order(tab$k, tab$lambda, tab$beta), ], row.names = FALSE)
  cat("\n")
}

cat("## 2. Candidate beta grids (chosen = best, 1se; fold-fit CPU s)\n\n")
grids <- list("0,1,10" = c(0, 1, 10), "1,10" = c(1, 10), "0.1,1,10" = c(0.1, 1, 10),
              "1,10,100" = c(1, 10, 100), "0.1,1,10,100" = c(0.1, 1, 10, 100),
              "0,0.1,1,10,100" = c(0, 0.1, 1, 10, 100))
for (r in res) {
  f <- r$fits[r$fits$fold > 0, ]
  for (nm in names(grids)) {
    on <- which(r$grid$beta %in% grids[[nm]])
    g <- r$grid[on, ]
    o <- order_reg(g)
    b <- mlss:::best_grid_point(r$cvm[on], o, TRUE)
    s <- mlss:::one_se_point(r$cvm[on], r$cvsd[on], b, o, TRUE)
    cat(sprintf("%-9s beta %-15s best %-26s cvm %.4f | 1se %-26s | %7.1f CPU s\n", r$name, nm,
                pt(g, b), r$cvm[on][b], pt(g, s), sum(f$cpu[f$beta %in% grids[[nm]]])))
  }
  cat("\n")
}

cat("## 3. Early stop along beta (patience 2, margin 3), largest beta first\n\n")
for (r in res) {
  f <- r$fits[r$fits$fold > 0, ]
  for (nm in c("0,0.1,1,10,100", "0,1,10", "0.1,1,10,100")) {
    on <- which(r$grid$beta %in% grids[[nm]])
    g <- r$grid[on, ]
    cvm <- r$cvm[on]
    cvsd <- r$cvsd[on]
    walk <- order(-g$beta, g$lambda, g$k)
    path <- match(paste(g$lambda, g$k), unique(paste(g$lambda, g$k)))
    stopped <- logical(max(path))
    scored <- logical(nrow(g))
    for (i in walk) {
      if (stopped[path[i]]) next
      scored[i] <- TRUE
      stopped[path[i]] <- mlss:::path_stops(cvm, cvsd, which(scored & path == path[i]),
                                            which(scored), TRUE, 2, 3)
    }
    cm <- ifelse(scored, cvm, NA)
    o <- order_reg(g)
    b <- mlss:::best_grid_point(cm, o, TRUE)
    s <- mlss:::one_se_point(cm, cvsd, b, o, TRUE)
    key <- paste(g$lambda, g$beta, g$k)
    cpu <- tapply(f$cpu, paste(f$lambda, f$beta, f$k), sum)[key]
    cat(sprintf("%-9s beta %-15s skips %2d of %2d points (%s); best %s, 1se %s; %.1f of %.1f CPU s\n",
                r$name, nm, sum(!scored), nrow(g),
                if (any(!scored)) paste(unique(sprintf("beta %g", g$beta[!scored])), collapse = ", ") else "-",
                pt(g, b), pt(g, s), sum(cpu[scored]), sum(cpu)))
  }
}
