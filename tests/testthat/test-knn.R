knn <- mlss:::knn_search

test_that("the dense search equals a brute-force dist() (no ties)", {
  set.seed(1)
  x <- matrix(rnorm(60 * 5), 60)
  q <- matrix(rnorm(17 * 5), 17)
  for (k in c(1, 4, 60)) {
    got <- knn(x, k, q)
    ref <- ref_knn(x, k, q)
    expect_identical(got$index, ref$index)
    expect_equal(got$distance, ref$distance, tolerance = 1e-12)
  }
  for (k in c(1, 7, 59)) {                 # leave-self-out, k up to n - 1
    got <- knn(x, k)
    ref <- ref_knn(x, k)
    expect_identical(got$index, ref$index)
    expect_equal(got$distance, ref$distance, tolerance = 1e-12)
  }
  # several blocks, and one query row per block
  for (b in c(1L, 7L)) {
    expect_identical(knn(x, 5, q, block = b), knn(x, 5, q))
    expect_identical(knn(x, 5, block = b), knn(x, 5))
  }
})

test_that("ties go to the lower index and duplicates are neighbours at distance 0", {
  set.seed(2)
  x <- matrix(sample(0:2, 40 * 3, replace = TRUE), 40)   # many exact ties
  x[10, ] <- x[3, ]                                      # an exact duplicate
  for (k in c(1, 5, 39)) {
    got <- knn(x, k)
    ref <- ref_knn(x, k)
    expect_identical(got$index, ref$index)
    expect_equal(got$distance, ref$distance, tolerance = 1e-14)
  }
  got <- knn(x, 1)
  expect_identical(got$index[3, 1], 10L)
  expect_identical(got$index[10, 1], 3L)
  expect_identical(got$distance[3, 1], 0)
  # four copies of the same row: each one's neighbours are the other three, in order
  y <- rbind(x, c(9, 9, 9), x, c(9, 9, 9), c(9, 9, 9), c(9, 9, 9))
  got <- knn(y, 3)
  expect_identical(got$index[41, ], c(82L, 83L, 84L))
  expect_identical(got$index[83, ], c(41L, 82L, 84L))
  expect_identical(got$distance[83, ], c(0, 0, 0))
  expect_identical(knn(y, 3, block = 5L), got)
})

test_that("near-ties far from the origin are ordered by the exact distance", {
  # ||q||^2 + ||x||^2 - 2 q'x cancels to nothing at 1e8: the direct recomputation decides
  set.seed(3)
  x <- 1e8 + matrix(round(rnorm(30 * 4), 3), 30) * 1e-4
  q <- x[c(2, 9), ] + 1e-6
  got <- knn(x, 5, q)
  ref <- ref_knn(x, 5, q)
  expect_identical(got$index, ref$index)
  expect_equal(got$distance, ref$distance, tolerance = 1e-6)
  got <- knn(x, 4)
  expect_identical(got$index, ref_knn(x, 4)$index)
})

test_that("the sparse search equals the dense one and dist()", {
  set.seed(4)
  x <- matrix(rnorm(50 * 8), 50) * (matrix(runif(50 * 8), 50) < 0.3)
  x[7, ] <- 0                                            # an empty row
  x[20, ] <- x[21, ]
  q <- matrix(rnorm(9 * 8), 9) * (matrix(runif(9 * 8), 9) < 0.3)
  xs <- Matrix::Matrix(x, sparse = TRUE)
  qs <- Matrix::Matrix(q, sparse = TRUE)
  for (k in c(1, 6, 49)) {
    got <- knn(xs, k)
    ref <- ref_knn(x, k)
    expect_identical(got$index, ref$index)
    expect_equal(got$distance, ref$distance, tolerance = 1e-12)
  }
  got <- knn(xs, 6, qs)
  expect_identical(got$index, ref_knn(x, 6, q)$index)
  expect_equal(got$distance, ref_knn(x, 6, q)$distance, tolerance = 1e-12)
  # mixed storage: the query is converted to x's
  expect_identical(knn(xs, 6, q)$index, got$index)
  expect_identical(knn(x, 6, qs)$index, got$index)
  # sparse binary rows: many ties
  b <- matrix(rbinom(45 * 10, 1, 0.2), 45)
  expect_identical(knn(Matrix::Matrix(b, sparse = TRUE), 8)$index, ref_knn(b, 8)$index)
})

test_that("the result does not depend on the number of threads", {
  set.seed(5)
  x <- matrix(rnorm(200 * 6), 200)
  old <- options(mlss.threads = 1L)
  on.exit(options(old))
  one <- knn(x, 10)
  options(mlss.threads = 3L)
  two <- knn(x, 10)
  expect_identical(one, two)
})

test_that("bad k and mismatched columns are refused", {
  x <- matrix(rnorm(20), 10)
  expect_error(knn(x, 10), "from 1 to 9")
  expect_error(knn(x, 11, x), "from 1 to 10")
  expect_error(knn(x, 0), "whole number")
  expect_error(knn(x, 2.5), "whole number")
  expect_error(knn(x, 2, matrix(1, 3, 3)), "3 columns but 'x' has 2")
  x[2, 1] <- NA
  expect_error(knn(x, 2), "NA")
  expect_identical(dim(knn(matrix(1:2, 2), 1)$index), c(2L, 1L))
})
