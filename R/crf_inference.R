# Inference for predict.mlcrf(): the potentials of mlcrf_potentials() in, the
# marginals, MAP, log Z (and log p(y) of given vectors) out, with a report of
# what ran.  See the section Inference of ?predict.mlcrf and src/crf_infer.c.

# "auto" enumerates each connected component of the graph with at most this
# many labels (2^20 vectors); larger ones are inferred approximately.
crf_component_exact <- 20L

# The target of the Monte Carlo standard error of Gibbs marginals: above it,
# the C code runs 2, 4, 8 times as many sweeps, then a warning.
crf_gibbs_se_target <- 0.005

# Gibbs sampling's replica exchange: this many chains at inverse temperatures
# from 1 down to beta_min, geometric (c(1, 1): plain Gibbs sampling); chosen
# on frustrated dense graphs by bench/mlcrf_tempering.R.
crf_tempering <- c(chains = 8, beta_min = 0.1)

crf_mode <- function(inference) match(inference, c("auto", "exact", "approximate")) - 1L

# What one call computes on an approximate component (the bits of src/crf_infer.c):
# the marginals, the MAP, log Z (and log p(y)).
crf_want <- c(score = 1L, class = 2L, prob = 4L, all = 7L)

# One call to the C code; y NULL or an n x m 0/1 double matrix.  what: the
# names of crf_want that are needed; loopy: "gibbs" (Gibbs marginals on every
# approximate component with cycles) or "bp" (BP's marginals where BP
# settled, Gibbs where it did not).
crf_infer_call <- function(node, pair, from, to, inference = "auto", y = NULL,
                           damping = 0.5, max_iter = 500L, tol = 1e-8, sweeps = 5000L,
                           starts = 5L, component_max = crf_component_exact, what = "all",
                           loopy = "gibbs", tempering = crf_tempering) {
  if (!is.numeric(sweeps) || length(sweeps) != 1 || is.na(sweeps) || sweeps < 20 ||
      sweeps > .Machine$integer.max)
    stop_arg("'sweeps' must be a number of Gibbs sweeps >= 20")
  if (!is.numeric(starts) || length(starts) != 1 || is.na(starts) || starts < 0 ||
      starts > 1e6)
    stop_arg("'starts' must be a number >= 0 of random starts of iterated conditional modes")
  want <- Reduce(bitwOr, crf_want[what])
  .Call(C_crf_infer, node, pair, as.integer(from), as.integer(to), crf_mode(inference),
        as.integer(component_max), y, as.numeric(damping), as.integer(max_iter), as.numeric(tol),
        as.integer(sweeps), as.integer(starts), crf_gibbs_se_target, as.integer(want),
        match(loopy, c("gibbs", "bp")) - 1L, as.numeric(tempering))
}

# The report attached as attr(, "inference"), and the warnings: BP that did
# not settle (after more damping), Gibbs marginals whose Monte Carlo error is
# above the target.
crf_inference_info <- function(res, m, tol, sweeps, type = "score", loopy = "gibbs") {
  n <- length(res$logZ)
  sizes <- tabulate(res$component)
  all_exact <- n == 0 || all(res$exact_labels == m)
  if (all_exact) {
    info <- list(method = "exact", components = sizes)
    if (length(sizes) > 1) info$detail <- "enumeration per connected component"
    return(info)
  }
  bp_ok <- res$bp_delta < tol
  sampler <- paste0(
    "Gibbs sampling with replica exchange (", crf_tempering[["chains"]], " temperatures from 1 ",
    "down to ", crf_tempering[["beta_min"]], "; two runs of ", sweeps %/% 2, " sweeps after ",
    sweeps %/% 10, " of burn-in, up to 8 times as many while the Monte Carlo standard error ",
    "(within and between the runs) exceeds ", crf_gibbs_se_target)
  marg_rule <- if (loopy == "gibbs") paste0(sampler, "; marginals)") else
    paste0("loopy BP's marginals where BP settled, else ", sampler, ")")
  info <- list(method = "approximate", components = sizes,
               exact_labels = res$exact_labels,
               marginals = "belief propagation",
               map = "max-product belief propagation and iterated conditional modes",
               detail = paste0("per connected component: enumeration up to ",
                               crf_component_exact, " labels (inference = \"auto\"); ",
                               "on larger trees sum-product BP (marginals) and ",
                               "max-product BP (MAP); on larger components with cycles ",
                               marg_rule, " and the Bethe log Z; MAP candidates polished ",
                               "by iterated conditional modes"),
               bp_iterations = res$bp_iter, bp_converged = bp_ok,
               gibbs_se = res$gibbs_se, swap_rate = res$swap_rate,
               map_certified = res$map_certified)
  if (type == "score" && any(res$gibbs))
    info$marginals <- "Gibbs sampling (components with cycles)"
  if (type == "score" && any(res$gibbs) && any(res$loopy & !res$gibbs))
    info$marginals <- paste("loopy belief propagation where it converged, Gibbs sampling",
                            "where it did not (components with cycles)")
  if (type == "score" && any(res$loopy) && !any(res$gibbs))
    info$marginals <- "loopy belief propagation (components with cycles)"
  if (type == "prob") info$log_z <- if (any(res$loopy))
    "Bethe free energy of loopy belief propagation (components with cycles)" else
      "belief propagation on trees (exact once converged)"
  # BP's marginals are used where Gibbs did not run; its log Z for type = "prob"
  bp_bad <- !bp_ok & (type == "prob" | (type == "score" & !res$gibbs))
  if (any(bp_bad))
    warn_not_converged_msg("belief propagation did not converge for ", sum(bp_bad),
                           " of ", n, " instances, even with more damping ",
                           "(see attr(, \"inference\"))")
  # (the marginals are returned for type = "score" only)
  bad <- type == "score" & res$gibbs_se > crf_gibbs_se_target
  if (any(bad))
    warn_not_converged_msg("Gibbs sampling: the Monte Carlo standard error of the ",
                           "marginals exceeds ", crf_gibbs_se_target, " for ", sum(bad),
                           " of ", n, " instances (largest ", signif(max(res$gibbs_se), 2),
                           "); more 'sweeps' reduce it (see attr(, \"inference\"))")
  info
}
