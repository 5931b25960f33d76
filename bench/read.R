# Reading multi-label files: read_mulan() against readLines() of the same file
# (the goal: within 2 x) and against mldr::mldr() when installed, all in this
# process; the memory of the result against its dgCMatrix; then mlls() on
# sparse Yahoo Arts (1000 training pages, the papers' protocol) against the
# same fit on the densified matrix.
# Run: make bench, or R_LIBS=lib Rscript bench/read.R   (needs ../shared/data,
# or MLSS_SHARED pointing at the shared folder)
# MLSS_BENCH_MLDR=no skips mldr, =small runs it on yeast only.
source(file.path("bench", "common.R"))

data_dir <- shared_data()
mldr_mode <- Sys.getenv("MLSS_BENCH_MLDR", "all")
have_mldr <- mldr_mode != "no" && requireNamespace("mldr", quietly = TRUE)

mb <- function(x) as.numeric(utils::object.size(x)) / 2^20

sets <- list(yeast = file.path(data_dir, "mulan", "yeast", "yeast.arff"),
             yahoo_arts = file.path(data_dir, "yahoo", "yahoo_arts.arff"),
             yahoo_health = file.path(data_dir, "yahoo", "yahoo_health.arff"))
xml_of <- function(f) sub("\\.arff$", ".xml", f)

cat("read_mulan() against readLines() and mldr::mldr(), seconds (median of 5)\n")
cat(sprintf("%-13s %6s %9s %10s %6s %8s %8s\n", "file", "MB", "readLines", "read_mulan",
            "ratio", "mldr", "ratio"))
results <- list()
for (set in names(sets)) {
  f <- sets[[set]]
  t_lines <- elapsed(readLines(f), 5)
  t_read <- elapsed(d <- read_mulan(f, xml = xml_of(f)), 5)
  t_mldr <- NA
  if (have_mldr && (mldr_mode == "all" || set == "yeast")) {
    t_mldr <- elapsed(m <- mldr::mldr(sub("\\.arff$", "", f), xml_file = xml_of(f),
                                      force_read_from_file = TRUE), 1)
    results[[set]]$mldr_mb <- mb(m)
    rm(m)
  }
  results[[set]]$data <- d
  cat(sprintf("%-13s %6.1f %9.3f %10.3f %6.2f %8.2f %8.1f\n", set, file.size(f) / 2^20,
              t_lines, t_read, t_read / t_lines, t_mldr, t_mldr / t_read))
}

cat("\nmemory of the result, MB: the whole mlss_data, its x, x as a dgCMatrix,",
    "x dense, mldr's object\n")
for (set in names(results)) {
  d <- results[[set]]$data
  sparse_x <- methods::as(methods::as(d$x, "CsparseMatrix"), "generalMatrix")
  cat(sprintf("%-13s result %7.1f  x %7.1f (%s)  dgCMatrix %7.1f  result/dgCMatrix %5.2f  dense %8.1f  mldr %8.1f\n",
              set, mb(d), mb(d$x), class(d$x)[1], mb(sparse_x), mb(d) / mb(sparse_x),
              8 * prod(dim(d$x)) / 2^20, if (is.null(results[[set]]$mldr_mb)) NA else results[[set]]$mldr_mb))
}

cat("\nmlls() on Yahoo Arts after tfidf() (papers' protocol), 1000 random training pages\n")
arts <- tfidf(results$yahoo_arts$data)
set.seed(1)
train <- sample(nrow(arts$x), 1000)
xs <- arts$x[train, ]
xd <- as.matrix(xs)
y <- arts$y[train, ]
cat(sprintf("x: %d x %d, %.2f%% non-zero, %d labels\n", nrow(xs), ncol(xs),
            100 * length(xs@x) / prod(dim(xs)), ncol(y)))
t_sparse <- elapsed(fs <- mlls(xs, y, alpha = 1, beta = 0.01), 3)
t_dense <- elapsed(fd <- mlls(xd, y, alpha = 1, beta = 0.01), 3)
cat(sprintf("sparse %.3f s, dense %.3f s, sparse/dense %.2f; max |U difference| %.2e\n",
            t_sparse, t_dense, t_sparse / t_dense, max(abs(fs$U - fd$U))))
