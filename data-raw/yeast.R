# Builds data/yeast.rda from the Mulan originals in ../shared/data/mulan/yeast/.
# Run from the package root: Rscript data-raw/yeast.R
# The rows are Mulan's training file followed by its test file, with the split
# kept in `train`; labels are the attributes named in yeast.xml, in file order.
src <- file.path("..", "shared", "data", "mulan", "yeast")
xml <- readLines(file.path(src, "yeast.xml"), warn = FALSE)
labels <- regmatches(xml, regexpr('(?<=name=")[^"]+', xml, perl = TRUE))
parts <- lapply(c("yeast-train.arff", "yeast-test.arff"),
                function(f) foreign::read.arff(file.path(src, f)))
all <- do.call(rbind, parts)
is_label <- names(all) %in% labels
stopifnot(sum(is_label) == length(labels))
x <- as.matrix(all[!is_label])
y <- vapply(all[is_label], function(col) as.character(col) == "1", logical(nrow(all)))
rownames(x) <- rownames(y) <- NULL
yeast <- structure(list(x = x, y = y,
                        train = rep(c(TRUE, FALSE), vapply(parts, nrow, integer(1))),
                        name = "yeast"),
                   class = "mlss_data")
save(yeast, file = file.path("data", "yeast.rda"), compress = "xz")
