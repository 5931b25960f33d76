#' Yeast gene functional classes
#'
#' The yeast data of Elisseeff and Weston (2001) as distributed by the Mulan
#' project: 2417 genes described by 103 numeric features (micro-array
#' expression and phylogenetic profiles), each annotated with some of 14
#' functional classes (4.24 on average).
#'
#' @format An object of class `"mlss_data"` (see [mlss_data()]), a list with
#' \describe{
#'   \item{x}{a 2417 x 103 numeric matrix of features `Att1` ... `Att103`;}
#'   \item{y}{a 2417 x 14 logical matrix of labels `Class1` ... `Class14`, in
#'     the order of the ARFF attributes (`yeast.xml` lists them in another);}
#'   \item{train}{a logical vector, `TRUE` for the 1500 rows of Mulan's
#'     training file (they come first), `FALSE` for the 917 of its test file;}
#'   \item{name}{`"yeast"`;}
#'   \item{relation}{the ARFF relation name, `"MultiLabelData"`.}
#' }
#' @source Mulan, <https://mulan.sourceforge.net/datasets-mlc.html>, files
#'   `yeast-train.arff`, `yeast-test.arff` and `yeast.xml` (2.4 MB of ARFF),
#'   read with [read_mulan()] by the script `data-raw/mulan.R` of the package
#'   sources.  Mulan distributes the data for research use, with no licence
#'   of its own, and asks that the original paper be cited.
#' @references Elisseeff A. and Weston J. (2001). A kernel method for
#'   multi-labelled classification. Advances in Neural Information
#'   Processing Systems 14, 681-687.
#' @seealso [emotions], [scene]; [read_mulan()] for the other Mulan sets.
#' @examples
#' yeast <- mlss::yeast   # data(yeast) would load mldr's yeast when mldr is attached
#' yeast
#' colMeans(yeast$y)   # label frequencies
"yeast"

#' Emotions evoked by music
#'
#' The emotions data of Trohidis et al. (2008) as distributed by the Mulan
#' project: 593 songs, each described by 72 numeric rhythmic and timbre
#' features of a 30-second extract, and tagged by experts with some of 6
#' emotions (1.87 on average; the Tellegen-Watson-Clark model).
#'
#' @format An object of class `"mlss_data"` (see [mlss_data()]), a list with
#' \describe{
#'   \item{x}{a 593 x 72 numeric matrix of features (`Mean_Acc1298_Mean_Mem40_Centroid`, ...);}
#'   \item{y}{a 593 x 6 logical matrix of labels `amazed-suprised`,
#'     `happy-pleased`, `relaxing-calm`, `quiet-still`, `sad-lonely`,
#'     `angry-aggresive` (Mulan's spelling);}
#'   \item{train}{a logical vector, `TRUE` for the 391 rows of Mulan's
#'     training file (they come first), `FALSE` for the 202 of its test file;}
#'   \item{name}{`"emotions"`;}
#'   \item{relation}{the ARFF relation name, `"musicout"`.}
#' }
#' @source Mulan, <https://mulan.sourceforge.net/datasets-mlc.html>, files
#'   `emotions-train.arff`, `emotions-test.arff` and `emotions.xml` (0.4 MB
#'   of ARFF), read with [read_mulan()] by the script `data-raw/mulan.R` of
#'   the package sources.  Mulan distributes the data for research use, with
#'   no licence of its own, and asks that the original paper be cited.
#' @references Trohidis K., Tsoumakas G., Kalliris G. and Vlahavas I. (2008).
#'   Multi-label classification of music into emotions. Proceedings of the
#'   9th International Conference on Music Information Retrieval (ISMIR
#'   2008), 325-330.
#' @seealso [yeast], [scene].
#' @examples
#' emotions <- mlss::emotions   # not data(emotions): mldr has its own
#' emotions
#' colSums(emotions$y[emotions$train, ])
"emotions"

#' Scene classification of photographs
#'
#' The scene data of Boutell et al. (2004) as distributed by the Mulan
#' project: 2407 photographs, each described by 294 numeric colour features
#' (the first and second moments of the LUV channels on a 7 x 7 grid) and
#' labelled with some of 6 scene types (1.07 on average).
#'
#' @format An object of class `"mlss_data"` (see [mlss_data()]), a list with
#' \describe{
#'   \item{x}{a 2407 x 294 numeric matrix of features `Att1` ... `Att294`;}
#'   \item{y}{a 2407 x 6 logical matrix of labels `Beach`, `Sunset`,
#'     `FallFoliage`, `Field`, `Mountain`, `Urban`;}
#'   \item{train}{a logical vector, `TRUE` for the 1211 rows of Mulan's
#'     training file (they come first), `FALSE` for the 1196 of its test file;}
#'   \item{name}{`"scene"`;}
#'   \item{relation}{the ARFF relation name, `"MultiLabelData"`.}
#' }
#' @source Mulan, <https://mulan.sourceforge.net/datasets-mlc.html>, files
#'   `scene-train.arff`, `scene-test.arff` and `scene.xml` (6.2 MB of ARFF),
#'   read with [read_mulan()] by the script `data-raw/mulan.R` of the package
#'   sources.  Mulan distributes the data for research use, with no licence
#'   of its own, and asks that the original paper be cited.
#' @references Boutell M. R., Luo J., Shen X. and Brown C. M. (2004).
#'   Learning multi-label scene classification. Pattern Recognition 37(9),
#'   1757-1771.
#' @seealso [yeast], [emotions].
#' @examples
#' scene <- mlss::scene
#' scene
#' table(rowSums(scene$y))   # most photographs have one label
"scene"

#' @export
print.mlss_data <- function(x, ...) {
  sparse <- if (inherits(x$x, "sparseMatrix")) " (sparse)" else ""
  name <- if (!is.null(x$name) && nzchar(x$name)) paste0(" '", x$name, "'") else ""
  cat("Multi-label data", name, ": ", nrow(x$x), " instances, ",
      ncol(x$x), " features", sparse, ", ", ncol(x$y), " labels\n", sep = "")
  cat(label_list(colnames(x$y)), "\n", sep = "")
  cat("label cardinality ", format(mean(rowSums(x$y), na.rm = TRUE), digits = 3),
      ", density ", format(mean(x$y, na.rm = TRUE), digits = 3), "\n", sep = "")
  if (anyNA(x$y))
    cat("missing labels: ", sum(is.na(x$y)), " (", format(100 * mean(is.na(x$y)), digits = 3),
        "% of the entries)\n", sep = "")
  if (!is.null(x$train))
    cat("split: ", sum(x$train), " training and ", sum(!x$train), " test instances\n",
        "  (a fit learns from the training ones, predict(fit, data) scores the test ones)\n",
        sep = "")
  invisible(x)
}

# "labels: a, b, c, ... (and 12 more)" within the width of the console.
label_list <- function(labels, width = getOption("width", 80)) {
  head <- "labels: "
  out <- character()
  used <- nchar(head)
  for (i in seq_along(labels)) {
    more <- length(labels) - i
    tail <- if (more > 0) nchar(paste0(", ... (and ", more, " more)")) else 0
    if (used + nchar(labels[i]) + 2 + tail > width && length(out)) {
      return(paste0(head, paste(out, collapse = ", "), ", ... (and ",
                    length(labels) - length(out), " more)"))
    }
    out <- c(out, labels[i])
    used <- used + nchar(labels[i]) + 2
  }
  paste0(head, paste(out, collapse = ", "))
}
