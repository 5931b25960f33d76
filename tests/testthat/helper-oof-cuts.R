# The out-of-fold F1 cuts of the rows `tr` as cross-validation chooses them
# (issue 22): the chance rule decides once per label on all the rows of S
# (every fold's scores): a label whose plain F1 maximum there does not beat
# chance (f1_thresholds() replaces its cut, or its best is no better than
# predicting every row) gets the all-rows fallback; any other label the
# plain F1 maximum (level = 1) on the rows `tr`.
oof_f1_cuts <- function(S, y, tr) {
  S <- as.matrix(S)
  y <- as.matrix(y)
  ruled <- f1_thresholds(S, y)
  plain <- f1_thresholds(S, y, level = 1)
  npos <- colSums(y == 1, na.rm = TRUE)
  ntot <- colSums(!is.na(y))
  chance <- getOption("mlss.chance_level", 0.05)
  rejected <- chance < 1 & npos > 0 & npos < ntot &
    (unname(ruled$threshold) != unname(plain$threshold) |
       !(unname(plain$f1) > 2 * npos / (ntot + npos)))
  fold <- f1_thresholds(S[tr, , drop = FALSE], y[tr, , drop = FALSE], level = 1)$threshold
  unname(ifelse(rejected, ruled$threshold, fold))
}
