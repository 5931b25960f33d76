# tfidf(): a small collection worked out by hand, and the sizes of the MLLS
# papers' Table 2 on Yahoo Arts.

test_that("filters, TF-IDF and unit rows, worked out by hand", {
  counts <- rbind(c(2, 1, 0, 0), c(0, 3, 0, 1), c(1, 0, 1, 0), c(0, 0, 4, 0), c(5, 0, 0, 0))
  colnames(counts) <- c("ball", "goal", "vote", "rare")
  y <- cbind(sport = c(TRUE, TRUE, FALSE, FALSE, TRUE), politics = c(FALSE, TRUE, TRUE, FALSE, FALSE),
             tiny = c(FALSE, FALSE, FALSE, TRUE, FALSE))
  d <- mlss_data(Matrix::Matrix(counts, sparse = TRUE), y, train = c(TRUE, FALSE, TRUE, TRUE, TRUE),
                 name = "news")
  p <- tfidf(d, min_positives = 1, min_docs = 2)
  # tiny (1 positive) stays with min_positives = 1; with 2 it goes, and row 4 with it
  expect_identical(dim(p$x), c(5L, 3L))
  p <- tfidf(d, min_positives = 2, min_docs = 2)
  expect_identical(p$rows, c(1L, 2L, 3L, 5L))
  expect_identical(colnames(p$y), c("sport", "politics"))
  expect_identical(p$train, c(TRUE, FALSE, TRUE, TRUE))
  # after dropping row 4: ball in 3 of 4 documents, goal in 2, vote in 1, rare in 1
  expect_identical(colnames(p$x), c("ball", "goal"))
  idf <- c(ball = log(4 / 3), goal = log(4 / 2))
  expect_equal(p$idf, idf)
  w <- counts[c(1, 2, 3, 5), 1:2] * rep(idf, each = 4)
  expect_equal(as.matrix(p$x), w / sqrt(rowSums(w^2)), ignore_attr = TRUE)
  expect_s4_class(p$x, "dgCMatrix")
  raw <- tfidf(d, min_positives = 2, min_docs = 2, normalize = FALSE)
  expect_equal(as.matrix(raw$x), w, ignore_attr = TRUE)
})

test_that("argument errors", {
  d <- mlss_data(cbind(a = c(1, 0)), cbind(l = c(TRUE, FALSE)))
  expect_error(tfidf(d, min_positives = -1), "'min_positives' must be a single number >= 0")
  expect_error(tfidf(d, min_docs = "a"), "'min_docs' must be a single number >= 0")
  expect_error(tfidf(d, min_positives = 5), "no label has 5 positives")
  expect_error(tfidf(mlss_data(cbind(a = c(-1, 0)), cbind(l = c(TRUE, FALSE))), min_positives = 1),
               "must hold word counts")
})

test_that("the papers' protocol gives Yahoo Arts 7441 pages, 17973 words, 19 labels", {
  f <- shared_data("yahoo", "yahoo_arts.arff")
  p <- tfidf(read_mulan(f, xml = sub("arff$", "xml", f)))
  expect_identical(dim(p$x), c(7441L, 17973L))
  expect_identical(ncol(p$y), 19L)
  expect_identical(range(colSums(p$y)), c(104, 1838))  # MinNPI and MaxNPI of Table 2
  expect_equal(Matrix::rowSums(p$x^2), rep(1, 7441))
})
