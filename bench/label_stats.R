# ml_stats() against mldr 0.4.3 on every Mulan set of ../shared/data/mulan:
# mldr reads the ARFF + XML files itself (train and test parts joined with
# mldr's own `+`), mlss reads them with read_mulan(); the largest absolute
# difference of every figure, over the data-set measures and the per-label
# ones (IRLbl, SCUMBLE, SCUMBLE.CV) and the per-instance SCUMBLE.
# Run: R_LIBS=lib Rscript bench/label_stats.R   (needs mldr and ../shared/data)
source(file.path("bench", "common.R"))
if (!requireNamespace("mldr", quietly = TRUE)) stop("bench/label_stats.R needs mldr")

mulan <- shared_data("mulan")
sets <- list(
  emotions = list("emotions/emotions"), yeast = list("yeast/yeast"),
  scene = list("scene/scene-train", "scene/scene-test", xml = "scene/scene.xml"),
  birds = list("birds/birds-train", "birds/birds-test", xml = "birds/birds.xml"),
  enron = list("enron/enron"), medical = list("medical/medical"),
  corel5k = list("corel5k/Corel5k-sparse", xml = "corel5k/Corel5k.xml"),
  cal500 = list("cal500/cal500"), genbase = list("genbase/genbase"),
  flags = list("flags/flags"))

read_mldr <- function(parts, xml) {
  one <- function(p) suppressWarnings(mldr::mldr(file.path(mulan, p), xml_file = xml))
  m <- one(parts[[1]])
  if (length(parts) > 1) m <- m + one(parts[[2]])
  m
}

cat(sprintf("%-9s %5s %4s %5s %9s %9s %9s %9s %9s %9s %9s  %s\n", "set", "n", "m", "sets",
            "card", "MeanIR", "SCUMBLE", "TCS", "maxdiff", "TCS(x)", "secs", "figures equal"))
worst <- 0
for (set in names(sets)) {
  s_ <- sets[[set]]
  parts <- s_[if (is.null(names(s_))) seq_along(s_) else names(s_) == ""]
  xml <- file.path(mulan, s_$xml %||% paste0(parts[[1]], ".xml"))
  m <- read_mldr(parts, xml)
  arff <- file.path(mulan, paste0(parts[[1]], ".arff"))
  test <- if (length(parts) > 1) file.path(mulan, paste0(parts[[2]], ".arff"))
  d <- read_mulan(arff, xml, test = test)
  t <- elapsed(s <- ml_stats(d$y, features = m$measures$num.inputs))
  lab <- match(rownames(m$labels), s$label$label)
  if (anyNA(lab)) stop(set, ": the label names differ")
  mm <- m$measures
  # mldr keys label sets by its own column order; the counts do not depend on it
  diffs <- c(
    labelsets = s$labelsets - mm$num.labelsets,
    single = s$single_labelsets - mm$num.single.labelsets,
    maxfreq = s$max_frequency - mm$max.frequency,
    cardinality = s$cardinality - mm$cardinality, density = s$density - mm$density,
    meanIR = s$mean_ir - mm$meanIR, scumble = s$scumble - mm$scumble,
    scumble.cv = s$scumble_cv - mm$scumble.cv, tcs = s$tcs - mm$tcs,
    count = max(abs(s$label$count[lab] - m$labels$count)),
    IRLbl = max(abs(s$label$IRLbl[lab] - m$labels$IRLbl)),
    SCUMBLE.Lbl = max(abs(s$label$SCUMBLE[lab] - m$labels$SCUMBLE)),
    SCUMBLE.CV.Lbl = max(abs(s$label$SCUMBLE.CV[lab] - m$labels$SCUMBLE.CV), na.rm = TRUE),
    SCUMBLE.CV.NA = sum(is.na(s$label$SCUMBLE.CV[lab]) != is.na(m$labels$SCUMBLE.CV)))
  # per-instance SCUMBLE: mldr's rows are in file order, as read_mulan()'s
  if (nrow(m$dataset) == nrow(d$y))
    diffs <- c(diffs, instance = max(abs(s$instance_scumble - m$dataset$.SCUMBLE)))
  md <- max(abs(diffs))
  worst <- max(worst, md)
  tcs_x <- ml_stats(d)$tcs
  cat(sprintf("%-9s %5d %4d %5d %9.4f %9.4f %9.5f %9.4f %9.2e %9.4f %9.3f  %s\n", set, s$instances,
              s$labels, s$labelsets, s$cardinality, s$mean_ir, s$scumble, s$tcs, md, tcs_x, t,
              if (md <= 1e-12) "yes" else paste(names(diffs)[abs(diffs) > 1e-12], collapse = ",")))
}
cat(sprintf("largest difference over all sets and figures: %.3g\n", worst))
cat("TCS(x): ml_stats(read_mulan(...)) with d = ncol(x), nominal features expanded into indicators\n")
