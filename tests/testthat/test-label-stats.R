# ml_stats() against mldr's own figures, and against a plain-R reading of
# the definitions (Charte et al. 2015) on small data with corner cases.

# The statistics written out from their definitions, label by label and
# instance by instance (mldr's conventions: IRLbl 0 for an empty label).
stats_reference <- function(y) {
  y <- y == 1
  n <- nrow(y); m <- ncol(y)
  count <- vapply(seq_len(m), function(l) sum(y[, l]), 0)
  ir <- vapply(count, function(cl) if (cl == 0) 0 else max(count) / cl, 0)
  inst <- vapply(seq_len(n), function(i) {
    r <- ir[y[i, ]]
    if (!length(r)) return(0)
    1 - prod(r)^(1 / length(r)) / mean(r)
  }, 0)
  keys <- apply(y, 1, function(r) paste(as.integer(r), collapse = ""))
  tab <- table(keys)
  list(labelsets = length(tab), single = sum(tab == 1), maxfreq = max(tab),
       cardinality = sum(y) / n, density = sum(y) / n / m,
       mean_ir = sum(ir) / m, max_ir = max(ir),
       cvir = sqrt(sum((ir - mean(ir))^2) / (m - 1)) / mean(ir),
       scumble = mean(inst), inst = inst, ir = ir,
       lab = vapply(seq_len(m), function(l) if (count[l] == 0) 0 else mean(inst[y[, l]]), 0))
}

test_that("ml_stats follows the definitions on small data with corner cases", {
  set.seed(7)
  y <- matrix(runif(40 * 5) < c(0.5, 0.3, 0.1, 0.6, 0.2), 40, 5, byrow = TRUE,
              dimnames = list(NULL, letters[1:5]))
  y[3, ] <- FALSE                       # an instance without labels
  y[c(1, 2), ] <- TRUE                  # a repeated label set
  y[, 5] <- FALSE                       # a label nobody carries
  y[4, ] <- FALSE                       # and another
  y <- cbind(y, f = seq_len(40) == 3)   # a label carried once, alone (SCUMBLE 0)
  s <- ml_stats(y, features = 10)
  r <- stats_reference(y)
  expect_identical(s$labelsets, r$labelsets)
  expect_identical(s$single_labelsets, r$single)
  expect_equal(s$max_frequency, r$maxfreq)
  expect_equal(s$cardinality, r$cardinality, tolerance = 1e-14)
  expect_equal(s$density, r$density, tolerance = 1e-14)
  expect_equal(s$mean_ir, r$mean_ir, tolerance = 1e-14)
  expect_equal(s$max_ir, r$max_ir, tolerance = 1e-14)
  expect_equal(s$cvir, r$cvir, tolerance = 1e-13)
  expect_equal(s$instance_scumble, r$inst, tolerance = 1e-13)
  expect_equal(s$scumble, r$scumble, tolerance = 1e-13)
  expect_equal(s$label$IRLbl, r$ir, tolerance = 1e-14)
  expect_equal(s$label$SCUMBLE, r$lab, tolerance = 1e-13)
  expect_identical(s$label$IRLbl[5], 0)
  expect_true(is.na(s$label$SCUMBLE.CV[5]))
  expect_true(is.na(s$label$SCUMBLE.CV[6]))
  for (l in 1:4)
    expect_equal(s$label$SCUMBLE.CV[l], sd(r$inst[y[, l]]) / r$lab[l], tolerance = 1e-12)
  expect_equal(s$tcs, log(10 * 6 * r$labelsets))
  expect_equal(unname(s$cooccurrence), unname(crossprod(y + 0)))
  expect_equal(as.vector(s$labels_per_instance), tabulate(rowSums(y) + 1, max(rowSums(y)) + 1))
  expect_true(is.na(ml_stats(y)$tcs))
})

test_that("ml_stats equals mldr on the bundled emotions and on corner cases", {
  skip_if_not_installed("mldr")
  set.seed(7)
  small <- matrix(runif(40 * 5) < 0.4, 40, 5, dimnames = list(NULL, letters[1:5]))
  small[3, ] <- FALSE                          # an instance without labels
  small[, 5] <- FALSE                          # a label nobody carries
  small[, 4] <- seq_len(40) == 9               # a label carried once
  small_mldr <- mldr::mldr_from_dataframe(
    data.frame(f1 = rnorm(40), f2 = rnorm(40), small + 0L), labelIndices = 3:7, name = "small")
  cases <- list(list(s = summary(mlss::emotions), m = as_mldr(mlss::emotions)),
                list(s = ml_stats(small, features = 2), m = small_mldr))
  for (case in cases) {
    s <- case$s
    m <- case$m
    mm <- m$measures
    expect_identical(s$labelsets, mm$num.labelsets)
    expect_identical(s$single_labelsets, mm$num.single.labelsets)
    expect_equal(s$max_frequency, as.numeric(mm$max.frequency))
    for (f in list(c("cardinality", "cardinality"), c("density", "density"),
                   c("mean_ir", "meanIR"), c("scumble", "scumble"),
                   c("scumble_cv", "scumble.cv"), c("tcs", "tcs")))
      expect_lt(abs(s[[f[1]]] - mm[[f[2]]]), 1e-12)
    expect_identical(s$label$label, rownames(m$labels))
    expect_lt(max(abs(s$label$IRLbl - m$labels$IRLbl)), 1e-12)
    expect_lt(max(abs(s$label$SCUMBLE - m$labels$SCUMBLE)), 1e-12)
    expect_identical(is.na(s$label$SCUMBLE.CV), is.na(m$labels$SCUMBLE.CV))
    expect_lt(max(abs(s$label$SCUMBLE.CV - m$labels$SCUMBLE.CV), na.rm = TRUE), 1e-12)
    expect_lt(max(abs(s$instance_scumble - m$dataset$.SCUMBLE)), 1e-12)
  }
})

test_that("ml_stats takes data sets and refuses missing labels", {
  s <- ml_stats(mlss::emotions)
  expect_identical(s$features, 72L)
  expect_identical(s$instances, 593L)
  expect_output(print(s), "27 distinct")
  expect_output(print(mlss::emotions), "label cardinality")   # print.mlss_data as before
  y <- cbind(a = c(TRUE, NA, FALSE), b = c(TRUE, TRUE, FALSE))
  expect_error(ml_stats(y), "'y' contains NA")
  expect_error(ml_stats(y[-2, ], features = 0), "'features' must be one positive number")
})

test_that("the label plots draw at a small size and return their input", {
  s <- ml_stats(mlss::emotions)
  grDevices::png(tf <- tempfile(fileext = ".png"), 400, 300)
  on.exit({ grDevices::dev.off(); unlink(tf) })
  for (type in c("frequency", "cardinality", "heatmap", "chord"))
    expect_identical(plot(s, type), s)
  expect_identical(plot(mlss::emotions, "chord", max_links = 2), mlss::emotions)
  expect_error(plot(s, "chord", max_links = -1), "'max_links'")
})
