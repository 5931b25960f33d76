# Inference for predict.mlcrf(): the potentials of mlcrf_potentials() in, the
# marginals, MAP, log Z (and log p(y) of given vectors) out, with a report of
# what ran.  See the section Inference of ?predict.mlcrf and src/crf_infer.c.

# "auto" enumerates each connected component of the graph with at most this
# many labels (2^20 vectors); larger ones are inferred approximately.
crf_component_exact <- 20L

# The target of the Monte Carlo standard error of Gibbs marginals: above it,
# the C code runs 2, 4, 8 times as many sweeps, then a warning.
crf_gibbs_se_target <- 0.005

crf_mode <- function(inference) match(inference, c("auto", "exact", "approximate")) - 1L

# One call to the C code; y NULL or an n x m 0/1 double matrix.
crf_infer_call <- function(node, pair, from, to, inference = "auto", y = NULL,
                           damping = 0.5, maxit = 500L, tol = 1e-8, sweeps = 5000L,
                           starts = 5L, component_max = crf_component_exact) {
  if (!is.numeric(sweeps) || length(sweeps) != 1 || is.na(sweeps) || sweeps < 20 ||
      sweeps > .Machine$integer.max)
    stop_arg("'sweeps' must be a number of Gibbs sweeps >= 20")
  if (!is.numeric(starts) || length(starts) != 1 || is.na(starts) || starts < 0 ||
      starts > 1e6)
    stop_arg("'starts' must be a number >= 0 of random starts of iterated conditional modes")
  .Call(C_crf_infer, node, pair, as.integer(from), as.integer(to), crf_mode(inference),
        as.integer(component_max), y, as.numeric(damping), as.integer(maxit), as.numeric(tol),
        as.integer(sweeps), as.integer(starts), crf_gibbs_se_target)
}

# The report attached as attr(, "inference"), and the warnings: BP that did
# not settle (after more damping), Gibbs marginals whose Monte Carlo error is
# above the target.
crf_inference_info <- function(res, m, tol, sweeps, type = "score") {
  n <- length(res$logZ)
  sizes <- tabulate(res$component)
  all_exact <- n == 0 || all(res$exact_labels == m)
  if (all_exact) {
    info <- list(method = "exact", components = sizes)
    if (length(sizes) > 1) info$detail <- "enumeration per connected component"
    return(info)
  }
  loopy <- res$gibbs_se > 0
  bp_ok <- res$bp_delta < tol
  info <- list(method = "approximate", components = sizes,
               exact_labels = res$exact_labels,
               marginals = "belief propagation",
               map = "max-product belief propagation and iterated conditional modes",
               detail = paste0("per connected component: enumeration up to ",
                               crf_component_exact, " labels (inference = \"auto\"); ",
                               "on larger trees sum-product BP (marginals) and ",
                               "max-product BP (MAP); on larger components with cycles ",
                               "Gibbs sampling (", sweeps, " sweeps after ", sweeps %/% 5,
                               " of burn-in, up to 8 times as many while the Monte Carlo ",
                               "standard error exceeds ", crf_gibbs_se_target, "; marginals) ",
                               "and the Bethe log Z; MAP candidates polished by iterated ",
                               "conditional modes"),
               bp_iterations = res$bp_iter, bp_converged = bp_ok,
               gibbs_se = res$gibbs_se, map_certified = res$map_certified)
  if (any(loopy)) info$marginals <- "Gibbs sampling (components with cycles)"
  # BP's marginals are used on trees only; its log Z everywhere (type = "prob")
  bp_bad <- !bp_ok & (!loopy | type == "prob")
  if (any(bp_bad))
    warn_not_converged_msg("belief propagation did not converge for ", sum(bp_bad),
                           " of ", n, " instances, even with more damping ",
                           "(see attr(, \"inference\"))")
  bad <- res$gibbs_se > crf_gibbs_se_target
  if (any(bad))
    warn_not_converged_msg("Gibbs sampling: the Monte Carlo standard error of the ",
                           "marginals exceeds ", crf_gibbs_se_target, " for ", sum(bad),
                           " of ", n, " instances (largest ", signif(max(res$gibbs_se), 2),
                           "); more 'sweeps' reduce it (see attr(, \"inference\"))")
  info
}
