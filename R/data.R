#' Yeast gene functional classes
#'
#' The yeast data of Elisseeff and Weston (2001) as distributed by the Mulan
#' project: 2417 genes described by 103 numeric features (micro-array
#' expression and phylogenetic profiles), each annotated with some of 14
#' functional classes (4.24 on average).
#'
#' @format An object of class `"mlss_data"`, a list with
#' \describe{
#'   \item{x}{a 2417 x 103 numeric matrix of features `Att1` ... `Att103`;}
#'   \item{y}{a 2417 x 14 logical matrix of labels `Class1` ... `Class14`;}
#'   \item{train}{a logical vector, `TRUE` for the 1500 rows of Mulan's
#'     training file (they come first), `FALSE` for the 917 of its test file;}
#'   \item{name}{`"yeast"`.}
#' }
#' @source Mulan, <https://mulan.sourceforge.net/datasets-mlc.html>, files
#'   `yeast-train.arff`, `yeast-test.arff` and `yeast.xml`; the script that
#'   builds the object is `data-raw/yeast.R` in the package sources.  Mulan
#'   distributes the data for research use and asks that the original paper
#'   be cited.
#' @references Elisseeff A. and Weston J. (2001). A kernel method for
#'   multi-labelled classification. Advances in Neural Information
#'   Processing Systems 14, 681-687.
#' @examples
#' data(yeast)
#' yeast
#' colMeans(yeast$y)   # label frequencies
"yeast"

#' @export
print.mlss_data <- function(x, ...) {
  sparse <- if (inherits(x$x, "sparseMatrix")) " (sparse)" else ""
  cat("Multi-label data '", x$name %||% "", "': ", nrow(x$x), " instances, ",
      ncol(x$x), " features", sparse, ", ", ncol(x$y), " labels\n", sep = "")
  cat("label cardinality ", format(mean(rowSums(x$y)), digits = 3),
      ", density ", format(mean(x$y), digits = 3), "\n", sep = "")
  if (!is.null(x$train))
    cat("split: ", sum(x$train), " training and ", sum(!x$train), " test instances\n",
        sep = "")
  invisible(x)
}
