# Builds data/yeast.rda, data/emotions.rda and data/scene.rda from the Mulan
# originals in ../shared/data/mulan/, with the package's own reader.
# Run from the package root after `make install`:
#   R_LIBS=lib Rscript data-raw/mulan.R
# Each object holds Mulan's training file followed by its test file, with the
# split kept in `train`; the labels are the attributes that the XML file
# names, in the order of the ARFF attributes.
library(mlss)
src <- file.path("..", "shared", "data", "mulan")
for (set in c("yeast", "emotions", "scene")) {
  dir <- file.path(src, set)
  data <- read_mulan(file.path(dir, paste0(set, "-train.arff")),
                     xml = file.path(dir, paste0(set, ".xml")),
                     test = file.path(dir, paste0(set, "-test.arff")), name = set)
  stopifnot(is.matrix(data$x), !anyNA(data$x), !anyNA(data$y))
  assign(set, data)
  save(list = set, file = file.path("data", paste0(set, ".rda")), compress = "xz")
  print(data)
}
