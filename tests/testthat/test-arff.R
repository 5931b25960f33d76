# read_mulan(), read_meka(), write_mulan(): small files whose content is
# known by hand, foreign::read.arff() as an independent reader of dense files,
# the round trip, every error message, and the Mulan files of ../shared.

toy_lines <- c(
  "% a comment before the header",
  "@RELATION toy",
  "",
  "@attribute a NUMERIC",
  "@attribute 'b c' real   % a comment after a declaration",
  "@attribute colour {red,green,blue}",
  "@attribute flag {0,1}",
  "@attribute sport {0,1}",
  "@attribute music {0, 1}",
  "@data",
  "1.5,2,red,1,1,0",
  "% a comment between rows",
  "",
  "0,-3e-2,blue,0,0,1",
  "?,0.25,green,1,1,1")

test_that("a dense file reads as written, and as foreign::read.arff reads it", {
  f <- text_file(toy_lines)
  d <- read_mulan(f, labels = c("music", "sport"))
  expect_s3_class(d, "mlss_data")
  x <- matrix(c(1.5, 0, NA, 2, -0.03, 0.25, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1), 3,
              dimnames = list(NULL, c("a", "b c", "colour=red", "colour=green", "colour=blue",
                                      "flag")))
  expect_identical(d$x, x)
  # labels in the order of the attributes, whatever the order asked in
  expect_identical(d$y, cbind(sport = c(TRUE, FALSE, TRUE), music = c(FALSE, TRUE, TRUE)))
  expect_null(d$train)
  expect_identical(d$relation, "toy")
  expect_identical(d$name, basename(sub("\\.arff$", "", f)))

  skip_if_not_installed("foreign")
  ref <- foreign::read.arff(f)
  expect_equal(unname(d$x[, 1:2]), unname(as.matrix(ref[1:2])))
  expect_identical(unname(d$x[, "flag"]), as.numeric(as.character(ref$flag)))
  for (l in c("red", "green", "blue"))
    expect_identical(unname(d$x[, paste0("colour=", l)]), as.numeric(ref$colour == l))
  expect_identical(unname(d$y), unname(sapply(ref[5:6], function(v) trimws(v) == "1")))
})

test_that("labels come from the XML file, from names, from a count or from MEKA's -C", {
  f <- text_file(toy_lines)
  xml <- text_file(c('<?xml version="1.0" encoding="utf-8"?>',
                     '<labels xmlns="http://mulan.sourceforge.net/labels">',
                     "<!-- <label name=\"a\"></label> is commented out -->",
                     "<label name='music'></label>", '<label name="sport"></label>',
                     "</labels>"), ".xml")
  d <- read_mulan(f, xml = xml)
  expect_identical(colnames(d$y), c("sport", "music"))
  expect_identical(read_mulan(f, labels = 2), d)
  expect_identical(read_mulan(f, labels = 3)$y[, "flag"], c(TRUE, FALSE, TRUE))

  meka_first <- sub("@RELATION toy", "@relation 'toy: -C 2 -split 66'", toy_lines)
  meka_first <- c(meka_first[1:3], meka_first[8:9], meka_first[4:7], meka_first[10],
                  "1,0,1.5,2,red,1", "0,1,0,-3e-2,blue,0", "1,1,?,0.25,green,1")
  m <- read_meka(text_file(meka_first))
  expect_identical(m$y, d$y)
  expect_identical(m$x, d$x)
  expect_identical(m$relation, "toy: -C 2 -split 66")
  meka_last <- sub("@RELATION toy", "@relation toy:-C -2", toy_lines)
  expect_identical(read_meka(text_file(meka_last))$y, d$y)
})

test_that("Mulan XML: entities, nested labels, single quotes", {
  xml <- text_file(c("<labels>", "<label name=\"a &amp; b\">",
                     "  <label name='x&lt;y'></label>", "</label>",
                     "<label name=\"&#233;t&#xE9;\"/>", "</labels>"), ".xml")
  expect_identical(mlss:::read_mulan_xml(xml), c("a & b", "x<y", "\u00e9t\u00e9"))
})

test_that("sparse rows: 0-based indices, omitted values 0 or the first level", {
  f <- text_file(c("@relation sp",
                   "@attribute w1 numeric", "@attribute w2 numeric",
                   "@attribute kind {x,y}", "@attribute bit {1,0}",
                   "@attribute L1 {0,1}", "@attribute L2 {1,0}",
                   "@data",
                   "{0 3,4 1}",
                   "{1 2.5, 2 y,3 0, 5 0}",
                   "{}",
                   "7,0,x,0,0,1"))
  d <- read_mulan(f, labels = c("L1", "L2"))
  expect_s4_class(d$x, "dgCMatrix")
  # kind omitted = "x"; bit omitted = its first level "1"; L2 omitted = "1"
  x <- rbind(c(3, 0, 1, 0, 1), c(0, 2.5, 0, 1, 0), c(0, 0, 1, 0, 1), c(7, 0, 1, 0, 0))
  expect_identical(as.matrix(d$x), `dimnames<-`(x, list(NULL, c("w1", "w2", "kind=x", "kind=y", "bit"))))
  expect_identical(d$y, cbind(L1 = c(TRUE, FALSE, FALSE, FALSE), L2 = c(TRUE, FALSE, TRUE, TRUE)))
  expect_identical(read_mulan(f, labels = 2, sparse = FALSE)$x, as.matrix(d$x))
})

test_that("dense or sparse x: by the file, by density, or as asked", {
  dense <- text_file(c("@relation r", "@attribute a numeric", "@attribute b numeric",
                       "@attribute l {0,1}", "@data", "1,2,1", "3,0,0"))
  expect_true(is.matrix(read_mulan(dense, labels = "l")$x))
  expect_s4_class(read_mulan(dense, labels = "l", sparse = TRUE)$x, "dgCMatrix")
  low <- text_file(c("@relation r", paste0("@attribute a", 1:5, " numeric"),
                     "@attribute l {0,1}", "@data", "1,0,0,0,0,1", "0,0,0,0,0,0"))
  expect_s4_class(read_mulan(low, labels = "l")$x, "dgCMatrix")  # 1 in 10 non-zero
  expect_true(is.matrix(read_mulan(low, labels = "l", sparse = FALSE)$x))
  expect_error(read_mulan(low, labels = "l", sparse = NA), "'sparse' must be NULL, TRUE or FALSE")
  # at the bound: a quarter of the entries non-zero is still sparse, more is dense
  quarter <- text_file(c("@relation r", "@attribute a numeric", "@attribute b numeric",
                         "@attribute l {0,1}", "@data", "1,0,1", "0,0,0"))
  expect_s4_class(read_mulan(quarter, labels = "l")$x, "dgCMatrix")
  more <- text_file(c("@relation r", "@attribute a numeric", "@attribute b numeric",
                      "@attribute l {0,1}", "@data", "1,0,1", "0,2,0"))
  expect_true(is.matrix(read_mulan(more, labels = "l")$x))
})

test_that("a level declared twice: its value is the first of the two", {
  f <- text_file(c("@relation r", "@attribute c {red,green,red}", "@attribute l {0,1}", "@data",
                   "red,1", "green,0", "{1 1}"))
  d <- read_mulan(f, labels = "l", sparse = FALSE)
  expect_identical(unname(d$x), rbind(c(1, 0, 0), c(0, 1, 0), c(1, 0, 0)))
  # the same with more than 8 levels, which are looked up in a hash table
  lv <- c(letters[1:9], "a")
  f <- text_file(c("@relation r", sprintf("@attribute c {%s}", paste(lv, collapse = ",")),
                   "@attribute l {0,1}", "@data", "a,1", "i,0"))
  d <- read_mulan(f, labels = "l", sparse = FALSE)
  expect_identical(unname(d$x), rbind(diag(10)[1, ], diag(10)[9, ]))
})

test_that("quotes, escapes, missing values, weights, tabs, Windows line ends", {
  f <- text_file(c("@relation 'my data'",
                   "@attribute 'it\\'s' numeric",
                   "@attribute \"x, y\"\tnumeric",
                   "@attribute 'Swainson\\'s Thrush' {0,1}",
                   "@attribute kind {'a b',c}",
                   "@data",
                   "1 , 2,1,'a b'",
                   "?,\t3,?,c, {2}",
                   "{0 4,1 ?,3 c}"), eol = "\r\n")
  d <- read_mulan(f, labels = "Swainson's Thrush")
  expect_identical(d$relation, "my data")
  expect_identical(colnames(d$x), c("it's", "x, y", "kind=a b", "kind=c"))
  expect_identical(as.matrix(d$x), `dimnames<-`(rbind(c(1, 2, 1, 0), c(NA, 3, 0, 1), c(4, NA, 0, 1)),
                                                dimnames(d$x)))
  expect_identical(d$y, cbind(`Swainson's Thrush` = c(TRUE, NA, FALSE)))
})

test_that("a file without a final newline keeps its last value whole", {
  head <- c("@relation r", "@attribute L {0,1}", "@attribute a numeric",
            "@attribute colour {red,green}", "@data")
  for (eol in c("\n", "\r\n")) {
    # dense: the last value is a number, then a nominal value
    d <- read_mulan(text_file(c(head, "0,1,green", "1,25,red"), eol = eol, final_eol = FALSE),
                    labels = "L")
    expect_identical(d, read_mulan(text_file(c(head, "0,1,green", "1,25,red"), eol = eol),
                                   labels = "L", name = d$name))
    expect_identical(unname(d$x[2, ]), c(25, 1, 0))
    d <- read_mulan(text_file(c(head, "1,green,0", "0,red,25")[c(1, 2, 4, 3, 5:7)],
                              eol = eol, final_eol = FALSE), labels = "L")
    expect_identical(unname(d$x[, "a"]), c(0, 25))
    # sparse: the closing brace is the last character
    d <- read_mulan(text_file(c(head, "{0 1,1 25}"), eol = eol, final_eol = FALSE),
                    labels = "L", sparse = FALSE)
    expect_identical(unname(d$x), cbind(25, 1, 0))
  }
})

test_that("a UTF-8 byte order mark is skipped", {
  f <- text_file(toy_lines)
  g <- tempfile(fileext = ".arff")
  writeBin(c(as.raw(c(0xef, 0xbb, 0xbf)), readBin(f, "raw", file.size(f))), g)
  expect_identical(read_mulan(g, labels = 2, name = "toy"), read_mulan(f, labels = 2, name = "toy"))
})

test_that("numbers are read correctly rounded, in every notation", {
  set.seed(1)
  v <- c(rnorm(200) * 10^sample(-30:30, 200, TRUE), 0.1, 0.023016, -0.095436, 1e300, 5e-324,
         2^53 + 2, 123456789012345678)
  txt <- c(sprintf("%.17g", v), "1e-3", "-.5", "+2", "1.5E+2", "12345678901234567890123",
           "0.00000000000000000000000000000000000000001", "-0", "3.", "1e400")
  f <- text_file(c("@relation n", "@attribute v numeric", "@attribute l {0,1}", "@data",
                   paste0(txt, ",0")))
  x <- read_mulan(f, labels = "l")$x[, 1]
  expect_identical(x[seq_along(v)], v)  # %.17g identifies a double: exact if correctly rounded
  expect_equal(x[-seq_along(v)], c(0.001, -0.5, 2, 150, 1.2345678901234568e22, 1e-41, 0, 3, Inf),
               tolerance = 1e-15)
})

test_that("a training and a test file stack, with the split in `train`", {
  dir <- tempfile()
  dir.create(dir)
  hdr <- c("@relation r", "@attribute a numeric", "@attribute l {0,1}", "@data")
  writeLines(c(hdr, "1,1", "2,0"), file.path(dir, "set-train.arff"))
  writeLines(c(hdr, "{0 3,1 1}"), file.path(dir, "set-test.arff"))
  d <- read_mulan(file.path(dir, "set-train.arff"), labels = "l",
                  test = file.path(dir, "set-test.arff"))
  expect_identical(d$name, "set")
  expect_identical(d$train, c(TRUE, TRUE, FALSE))
  expect_s4_class(d$x, "dgCMatrix")
  expect_identical(as.matrix(d$x), cbind(a = c(1, 2, 3)))
  expect_identical(d$y, cbind(l = c(TRUE, FALSE, TRUE)))
  writeLines(c("@relation r", "@attribute b numeric", "@attribute l {0,1}", "@data", "1,1"),
             file.path(dir, "other.arff"))
  expect_error(read_mulan(file.path(dir, "set-train.arff"), labels = "l",
                          test = file.path(dir, "other.arff")),
               "does not declare the same attributes")
})

test_that("compressed files are read whatever their name", {
  f <- text_file(toy_lines)
  g <- tempfile(fileext = ".arff.gz")
  con <- gzfile(g, "wb")
  writeBin(readBin(f, "raw", file.size(f)), con)
  close(con)
  a <- read_mulan(f, labels = 2, name = "toy")
  expect_identical(read_mulan(g, labels = 2, name = "toy"), a)
  expect_identical(read_mulan(g, labels = 2)$name, basename(sub("\\.arff\\.gz$", "", g)))
  h <- tempfile(fileext = ".arff")
  con <- xzfile(h, "wb")
  writeBin(readBin(f, "raw", file.size(f)), con)
  close(con)
  expect_identical(read_mulan(h, labels = 2, name = "toy"), a)
})

test_that("nominal features: indicators, an error, or left out; strings left out", {
  f <- text_file(toy_lines)
  expect_error(read_mulan(f, labels = 2, nominal = "error"),
               "the attribute 'colour' is nominal with the levels \\{red,green,blue\\}")
  d <- read_mulan(f, labels = 2, exclude = c("colour", "a"))
  expect_identical(colnames(d$x), c("b c", "flag"))
  s <- text_file(c("@relation s", "@attribute id string", "@attribute when date 'yyyy-MM-dd'",
                   "@attribute a numeric", "@attribute l {0,1}", "@data",
                   "'gene 1',2020-01-01,1.5,1", "g2,2020-01-02,2,0"))
  expect_error(read_mulan(s, labels = "l"),
               "the string attribute 'id' cannot be a feature; leave it out with exclude = \"id\"")
  d <- read_mulan(s, labels = "l", exclude = c("id", "when"))
  expect_identical(d$x, cbind(a = c(1.5, 2)))
  expect_error(read_mulan(f, labels = "colour"), "the label 'colour' has the levels \\{red,green,blue\\}")
  expect_error(read_mulan(f, labels = "sport", exclude = "sport"), "no label attribute is left")
  expect_error(read_mulan(f, labels = 2, exclude = "zz"), "'exclude': 'zz' is not an attribute")
})

test_that("numeric labels must be 0 or 1", {
  f <- text_file(c("@relation r", "@attribute a numeric", "@attribute l numeric", "@data",
                   "1,1", "2,0", "3,2"))
  expect_error(read_mulan(f, labels = "l"),
               paste0(f, ":7: the label 'l' has the value '2'; labels must be 0 or 1"), fixed = TRUE)
})

test_that("errors name the file, the line and what is wrong", {
  hdr <- c("@relation r", "@attribute a numeric", "@attribute b {u,v}", "@attribute l {0,1}",
           "@data")
  err <- function(lines, ...) {
    f <- text_file(lines)
    msg <- error_of(read_mulan(f, labels = "l", ...))
    sub(f, "FILE", msg, fixed = TRUE)
  }
  # the cases, one a row of arff-errors.tsv: a broken file's lines and its error
  cases <- utils::read.delim(test_path("arff-errors.tsv"), header = FALSE, quote = "",
                             comment.char = "#", col.names = c("lines", "error"),
                             colClasses = "character")
  expect_identical(nrow(cases), 18L)
  for (k in seq_len(nrow(cases)))
    expect_identical(err(strsplit(cases$lines[k], "|", fixed = TRUE)[[1]]), cases$error[k],
                     info = cases$lines[k])
  f <- text_file(hdr)
  xml <- text_file("<labels><label name=\"z\"/></labels>", ".xml")
  expect_identical(error_of(read_mulan(f, xml = xml)),
                   paste0("label 'z' named in '", xml, "' is not an attribute of ", f))
})

test_that("argument errors", {
  f <- text_file(toy_lines)
  expect_error(read_mulan(f), "say which attributes are labels")
  expect_error(read_mulan(f, xml = "x.xml", labels = 2), "give 'xml' or 'labels', not both")
  expect_error(read_mulan(f, labels = c("sport", "nope", "neither")),
               "label 'nope' named in 'labels' is not an attribute of .* \\(nor are 1 more\\)")
  expect_error(read_mulan(f, labels = 6), "'labels' = 6 but .* has only 6 attributes")
  expect_error(read_mulan(f, labels = TRUE), "'labels' must be the names of the label attributes")
  expect_error(read_mulan(file.path(tempdir(), "none.arff"), labels = 1),
               "'arff': the file '.*none.arff' does not exist")
  expect_error(read_mulan(c(f, f), labels = 1), "'arff' must be the name of a file")
  expect_error(read_meka(f), "the relation name 'toy' has no MEKA option '-C n'")
  expect_error(read_mulan(f, xml = text_file("<labels></labels>", ".xml")),
               "has no <label name=\"...\"> element")
  expect_error(read_mulan(f, xml = text_file(c("<label name='a'/>", "<label name='a'/>"), ".xml")),
               "names the label 'a' twice")
})

test_that("write_mulan() then read_mulan() gives back the data", {
  set.seed(2)
  x <- matrix(rnorm(60), 12, dimnames = list(NULL, c("a", "b c", "it's", "x{1}", "%p")))
  x[3, 2] <- NA
  x[5, ] <- 0
  x[6, 1] <- 1e-300
  y <- matrix(runif(36) > 0.5, 12, dimnames = list(NULL, c("l 1", "l,2", "\u00e9t\u00e9")))
  y[4, 1] <- NA
  d <- mlss_data(x, y, name = "rt", relation = "a 'quoted' relation")
  f <- tempfile(fileext = ".arff")
  expect_identical(write_mulan(d, f), f)
  expect_identical(read_mulan(f, xml = sub("arff$", "xml", f), name = "rt"), d)
  # sparse, gz, and MEKA's -C
  s <- mlss_data(Matrix::Matrix(x * (abs(x) > 1), sparse = TRUE), y, name = "rt", relation = "r")
  g <- tempfile(fileext = ".arff.gz")
  write_mulan(s, g, meka = TRUE)
  back <- read_meka(g, name = "rt")
  expect_identical(back$x, s$x)
  expect_identical(back$y, s$y)
  expect_identical(back$relation, paste0("r: -C -", ncol(y)))
  expect_true(file.exists(sub("arff.gz$", "xml", g)))
  # a dense x as sparse rows, and a list as data
  h <- tempfile(fileext = ".arff")
  write_mulan(list(x = x, y = y), h, xml = NULL, sparse = TRUE)
  expect_false(file.exists(sub("arff$", "xml", h)))
  expect_identical(as.matrix(read_mulan(h, labels = 3)$x), x)
  expect_error(write_mulan(d, 1), "'arff' must be the name of the file to write")
  expect_error(write_mulan(d, f, xml = 2), "'xml' must be the name of the XML file")
  expect_error(write_mulan(mlss_data(cbind(l = 1:2), cbind(l = c(TRUE, FALSE))), f),
               "the feature and label names of 'data' must be distinct")
})

test_that("every Mulan file of ../shared reads, as foreign::read.arff reads it", {
  root <- shared_data("mulan")
  files <- list.files(root, "\\.arff$", recursive = TRUE, full.names = TRUE)
  expect_gte(length(files), 16)
  shapes <- list(birds = c(271, 19), cal500 = c(68, 174), Corel5k = c(499, 374),
                 emotions = c(72, 6), enron = c(1001, 53), flags = c(43, 7),
                 genbase = c(3032, 27), medical = c(1449, 45), scene = c(294, 6),
                 yeast = c(103, 14))
  sparse_files <- c("Corel5k-sparse.arff", "enron.arff", "medical.arff")  # foreign cannot read them
  # the train and test files hold the rows of these; foreign takes seconds on these
  skip_foreign <- c("emotions.arff", "yeast.arff", "genbase.arff", "scene-train.arff",
                    "scene-test.arff")
  for (f in files) {
    xml <- list.files(dirname(f), "\\.xml$", full.names = TRUE)
    d <- read_mulan(f, xml = xml)
    set <- sub("[-.].*$", "", basename(f))
    expect_equal(c(ncol(d$x), ncol(d$y)), shapes[[set]], label = basename(f))
    if (basename(f) %in% sparse_files) expect_s4_class(d$x, "dgCMatrix")
    if (basename(f) %in% c(sparse_files, skip_foreign) || !requireNamespace("foreign", quietly = TRUE))
      next
    ref <- foreign::read.arff(f)
    expect_identical(unname(d$y), unname(sapply(ref[colnames(d$y)], function(v) trimws(v) == "1")),
                     label = basename(f))
    x <- as.matrix(d$x)
    num <- names(ref)[vapply(ref, is.numeric, NA)]
    if (length(num))
      expect_equal(x[, num], as.matrix(ref[num]), tolerance = 1e-15, ignore_attr = TRUE,
                   label = basename(f))
    nom <- setdiff(names(ref), c(num, colnames(d$y)))
    ok <- vapply(nom, function(nm) {  # {0,1}: one column; else one indicator per level
      v <- trimws(ref[[nm]])  # (foreign keeps only the levels that occur)
      if (nm %in% colnames(x)) return(identical(unname(x[, nm]), as.numeric(v)))
      cols <- colnames(x)[startsWith(colnames(x), paste0(nm, "="))]
      lv <- substring(cols, nchar(nm) + 2)
      all(v %in% lv) && identical(unname(x[, cols, drop = FALSE]), outer(v, lv, "==") + 0)
    }, NA)
    expect_true(all(ok), label = paste(basename(f), "nominal attributes"))
  }
})
