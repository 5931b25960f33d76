# Sums over rows, chunk by chunk: what MLLS's primal route, ridge and CCA
# need of the data (methods.md, section 1: the solution depends on X'X, X'Y,
# the column sums and n).
#
# A block of rows is summarised by its count n, the column means mx (d) and
# my (m) of the features and of the +1/-1 labels, and the centred cross
# products Sxx = Xc'Xc (d x d), Sxy = Xc'Yc (d x m), Syy = Yc'Yc (m x m).
# Two blocks merge by the pairwise update of Chan, Golub and LeVeque (1979):
#   n = na + nb,  delta = mean_b - mean_a,  mean = mean_a + delta nb / n,
#   S = Sa + Sb + delta_1 delta_2' na nb / n,
# which never forms a raw sum of squares, so that columns with a mean of 1e8
# and a spread of 1 keep their digits (the raw X'X would lose all of them).
# Each chunk is centred on its own means in two passes.

# The sums of no rows.
empty_sums <- function(d, m) {
  list(n = 0, mx = numeric(d), my = numeric(m), mx_lo = numeric(d), my_lo = numeric(m),
       Sxx = matrix(0, d, d), Sxy = matrix(0, d, m), Syy = matrix(0, m, m))
}

# The sums of one block: x (n x d, dense or dgCMatrix), y (n x m logical).
block_sums <- function(x, y) {
  n <- as.double(nrow(x))  # na * nb of the merge overflows an integer
  if (n == 0) return(empty_sums(ncol(x), ncol(y)))
  Y <- 2 * y - 1
  storage.mode(Y) <- "double"
  yc <- centre_dense_columns(Y)
  if (inherits(x, "sparseMatrix")) {
    # implicit centring; columns whose mean is large against their spread are
    # centred explicitly first (centre_offset_columns(), as mlls() does)
    xo <- centre_offset_columns(x)
    mo <- Matrix::colMeans(xo)
    Sxx <- as.matrix(Matrix::crossprod(xo)) - n * tcrossprod(mo)
    Sxy <- as.matrix(Matrix::crossprod(xo, yc$x))  # Yc sums to zero: no mean term
    mx <- as.numeric(Matrix::colMeans(x))
    # the rounding of the mean: sum(x - mx) / n over the non-zeros and zeros
    j <- rep.int(seq_len(ncol(x)), diff(x@p))
    mx_lo <- -(n - diff(x@p)) * mx
    if (length(j)) {
      dev <- rowsum(x@x - mx[j], j)
      idx <- as.integer(rownames(dev))
      mx_lo[idx] <- mx_lo[idx] + dev[, 1]
    }
    mx_lo <- mx_lo / n
  } else {
    mx <- colMeans(x)
    xc <- x - rep(mx, each = n)
    mx_lo <- colMeans(xc)  # what the rounded mean missed
    xc <- xc - rep(mx_lo, each = n)
    Sxx <- crossprod(xc)
    Sxy <- crossprod(xc, yc$x)
  }
  Sxx <- (Sxx + t(Sxx)) / 2
  dimnames(Sxx) <- list(colnames(x), colnames(x))
  dimnames(Sxy) <- list(colnames(x), colnames(y))
  Syy <- crossprod(yc$x)
  dimnames(Syy) <- list(colnames(y), colnames(y))
  my <- colMeans(Y)
  list(n = n, mx = stats::setNames(mx, colnames(x)), my = stats::setNames(my, colnames(y)),
       mx_lo = unname(mx_lo), my_lo = unname(yc$center - my),
       Sxx = Sxx, Sxy = Sxy, Syy = Syy)
}

# A mean is kept as an unevaluated sum hi + lo of two doubles (hi the rounded
# mean, lo what the rounding missed): the difference of two chunks' means,
# which the merge multiplies by up to n / 4, is then accurate to its own
# size, not to the size of the means (a mean of 1e8 is known only to about
# 1e-8 in one double).  two_sum() renormalises hi + lo exactly (Knuth).
two_sum <- function(a, b) {
  s <- a + b
  bb <- s - a
  list(hi = s, lo = (a - (s - bb)) + (b - bb))
}

shift_mean <- function(hi, lo, step) {
  ts <- two_sum(hi, lo + step)
  list(hi = stats::setNames(ts$hi, names(hi)), lo = ts$lo)
}

# The pairwise merge of Chan, Golub and LeVeque.
merge_sums <- function(a, b) {
  if (b$n == 0) return(a)
  if (a$n == 0) return(b)
  n <- a$n + b$n
  f <- a$n * b$n / n
  dx <- (b$mx - a$mx) + (b$mx_lo - a$mx_lo)
  dy <- (b$my - a$my) + (b$my_lo - a$my_lo)
  mx <- shift_mean(a$mx, a$mx_lo, dx * (b$n / n))
  my <- shift_mean(a$my, a$my_lo, dy * (b$n / n))
  list(n = n, mx = mx$hi, my = my$hi, mx_lo = mx$lo, my_lo = my$lo,
       Sxx = a$Sxx + b$Sxx + f * tcrossprod(dx),
       Sxy = a$Sxy + b$Sxy + f * tcrossprod(dx, dy),
       Syy = a$Syy + b$Syy + f * tcrossprod(dy))
}

# The reverse of the merge: the sums of the rows of `total` that are not in
# `part` (part a subset of total's rows).  Exact in exact arithmetic;
# cross-validation instead merges the other folds' sums, which cannot cancel
# (see fold_training_sums()).
subtract_sums <- function(total, part) {
  if (part$n == 0) return(total)
  n <- total$n - part$n
  if (n <= 0) return(empty_sums(length(total$mx), length(total$my)))
  dx <- (part$mx - total$mx) + (part$mx_lo - total$mx_lo)
  dy <- (part$my - total$my) + (part$my_lo - total$my_lo)
  mx <- shift_mean(total$mx, total$mx_lo, -dx * (part$n / n))
  my <- shift_mean(total$my, total$my_lo, -dy * (part$n / n))
  f <- n * part$n / total$n
  dx <- dx * (total$n / n)  # part's mean minus the rest's
  dy <- dy * (total$n / n)
  list(n = n, mx = mx$hi, my = my$hi, mx_lo = mx$lo, my_lo = my$lo,
       Sxx = total$Sxx - part$Sxx - f * tcrossprod(dx),
       Sxy = total$Sxy - part$Sxy - f * tcrossprod(dx, dy),
       Syy = total$Syy - part$Syy - f * tcrossprod(dy))
}

# Sums reduced over a list of sums, pairwise (a balanced tree: each row's
# weight meets O(log k) merges).
reduce_sums <- function(parts, d, m) {
  parts <- Filter(function(p) p$n > 0, parts)
  if (!length(parts)) return(empty_sums(d, m))
  while (length(parts) > 1) {
    odd <- length(parts) %% 2 == 1
    k <- length(parts) %/% 2
    merged <- lapply(seq_len(k), function(j) merge_sums(parts[[2 * j - 1]], parts[[2 * j]]))
    parts <- c(merged, if (odd) parts[length(parts)])
  }
  parts[[1]]
}

# Each fold's training sums, the merge of the other folds' sums (prefix and
# suffix merges: 3 k merges for k folds).  Merging, unlike subtracting the
# fold from the total, adds only non-negative parts and cannot cancel.
fold_training_sums <- function(folds) {
  k <- length(folds)
  d <- length(folds[[1]]$mx)
  m <- length(folds[[1]]$my)
  pre <- suf <- vector("list", k + 1)
  pre[[1]] <- suf[[k + 1]] <- empty_sums(d, m)
  for (f in seq_len(k)) pre[[f + 1]] <- merge_sums(pre[[f]], folds[[f]])
  for (f in rev(seq_len(k))) suf[[f]] <- merge_sums(folds[[f]], suf[[f + 1]])
  lapply(seq_len(k), function(f) merge_sums(pre[[f]], suf[[f + 1]]))
}

# The fold of each of the n rows of chunk i: a deterministic function of the
# chunk, the row and the seed, balanced within the chunk (each fold gets
# floor(n / k) or one more of its rows), whatever the worker or the session's
# random number generator.  The session's generator is left as it was.
chunk_foldid <- function(n, i, nfolds, seed) {
  if (n == 0) return(integer(0))
  kind <- RNGkind()
  had <- exists(".Random.seed", envir = globalenv(), inherits = FALSE)
  if (had) old <- get(".Random.seed", envir = globalenv(), inherits = FALSE)
  on.exit({
    RNGkind(kind[1], kind[2], kind[3])
    if (had) assign(".Random.seed", old, envir = globalenv())
    else rm(".Random.seed", envir = globalenv())
  })
  set.seed((as.double(seed) * 7919 + i) %% 2147483647, kind = "Mersenne-Twister",
           normal.kind = "Inversion", sample.kind = "Rejection")
  f <- rep_len(sample.int(nfolds), n)
  f[sample.int(n)]
}

# The fold of each row of a read chunk: its fold column, or the rule above.
rows_fold <- function(ch, i, nfolds, seed) {
  if (!is.null(ch$fold)) {
    if (any(ch$fold > nfolds))
      stop_arg("the fold column holds fold ", max(ch$fold), " but there are ", nfolds, " folds")
    return(ch$fold)
  }
  chunk_foldid(nrow(ch$x), i, nfolds, seed)
}

# The per-fold sums of chunk i (a list of nfolds sums; one with nfolds = 1),
# read from the cache folder when it holds them for the same settings.
chunk_sums <- function(source, i, ref, nfolds, seed, cache = NULL) {
  key <- list(nfolds = nfolds, seed = if (is.null(source$fold)) seed, fold = source$fold,
              features = ref$features, labels = ref$labels)
  file <- if (!is.null(cache)) file.path(cache, sprintf("sums-%06d.rds", i))
  if (!is.null(file) && file.exists(file)) {
    saved <- tryCatch(readRDS(file), error = function(e) NULL)
    if (!is.null(saved) && identical(saved$key, key)) return(saved$sums)
  }
  ch <- conform_chunk(read_chunk(source, i), ref, i, source)
  fold <- if (nfolds > 1) rows_fold(ch, i, nfolds, seed) else rep(1L, nrow(ch$x))
  sums <- fold_block_sums(ch$x, ch$y, fold, nfolds)
  size <- length(ch$x)
  rm(ch)
  collect_garbage(size)
  if (!is.null(file)) {
    tmp <- paste0(file, ".tmp")
    saveRDS(list(key = key, sums = sums), tmp)
    file.rename(tmp, file)
  }
  sums
}

# A large chunk is garbage once its sums or counts are taken (the caller has
# dropped its references): collect it before the next chunk is read, so that
# a process holds one chunk, not the several R's collector would let
# accumulate (its trigger grows with the heap).  Small chunks are left to R
# (a full collection costs about 0.1 s).
collect_garbage <- function(values) {
  if (values >= 1e7) gc(FALSE)
  invisible(NULL)
}

# The per-fold sums of one chunk's rows.  A dense chunk is taken in blocks
# of consecutive rows (block_rows(): about 10^6 values of x) whose sums are
# merged by merge_sums(): centring copies x several times, and copies of a
# block rather than of the chunk keep a worker's memory from growing with
# the size of its chunks (a chunk of 10^5 x 200 is 160 MB; each copy of it
# would be as much again).  A sparse chunk is taken whole.
fold_block_sums <- function(x, y, fold, nfolds,
                            block = if (inherits(x, "sparseMatrix")) nrow(x) else block_rows(ncol(x))) {
  n <- nrow(x)
  sums <- rep(list(empty_sums(ncol(x), ncol(y))), nfolds)
  if (n == 0) return(sums)
  for (start in seq(1, n, by = block)) {
    r <- start:min(n, start + block - 1)
    for (f in seq_len(nfolds)) {
      rows <- r[which(fold[r] == f)]  # as which(fold == f) did: NA drops out
      if (!length(rows)) next
      sums[[f]] <- merge_sums(sums[[f]], block_sums(x[rows, , drop = FALSE],
                                                    y[rows, , drop = FALSE]))
    }
  }
  sums
}

block_rows <- function(d) max(256L, as.integer(1e6 %/% max(1L, d)))

# One pass over the source: the per-fold sums of all chunks, merged where
# they are computed (chunk_apply()'s groups) and then in this session.
# Returns list(folds = the nfolds fold sums, total, ref, rows = per chunk).
source_sums <- function(source, nfolds = 1L, seed = 1L, cache = NULL, progress = FALSE) {
  if (!is.null(cache)) {
    if (!is.character(cache) || length(cache) != 1 || is.na(cache))
      stop_arg("'cache' must be NULL or the path of a folder")
    dir.create(cache, showWarnings = FALSE, recursive = TRUE)
    if (!dir.exists(cache)) stop_arg("'cache': cannot create the folder '", cache, "'")
  }
  ref <- chunk_columns(source)
  d <- length(ref$features)
  m <- length(ref$labels)
  acc <- chunk_apply(source, seq_len(source$n_chunks), function(i) {
    sums <- chunk_sums(source, i, ref, nfolds, seed, cache)
    list(sums = sums, rows = stats::setNames(sum(vapply(sums, `[[`, 0, "n")), i))
  }, progress, reduce = function(a, b)
    list(sums = Map(merge_sums, a$sums, b$sums), rows = c(a$rows, b$rows)))
  folds <- acc$sums
  total <- reduce_sums(folds, d, m)
  rows <- unname(acc$rows[as.character(seq_len(source$n_chunks))])
  if (total$n == 0) stop_arg("the source has no rows: every chunk is empty")
  list(folds = folds, total = total, ref = ref, rows = rows)
}
