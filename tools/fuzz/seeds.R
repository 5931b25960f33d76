# Seeds for the fuzz targets (run by seeds.sh): every ARFF file of
# ../shared/data cut down to a few features, its labels and 20 rows (so that
# header and rows fit the targets' input size), in the layout each target
# reads; plus small files with the syntax the data sets do not use.
# Usage: Rscript seeds.R <shared data dir> <output dir>
args <- commandArgs(TRUE)
data_dir <- args[1]
out <- args[2]
for (t in c("fuzz_arff", "fuzz_meka", "fuzz_libsvm")) dir.create(file.path(out, t), FALSE, TRUE)
put <- function(target, name, bytes) writeBin(bytes, file.path(out, target, name))
txt <- function(lines) charToRaw(paste0(paste(lines, collapse = "\n"), "\n"))

# The first `keep` features and at most 12 labels of an ARFF file, 20 rows.
shrink <- function(arff, labels, keep = 12, rows = 20) {
  lines <- readLines(arff, warn = FALSE)
  at <- grep("^@data", lines, ignore.case = TRUE)[1]
  is_attr <- grepl("^@attribute", lines[seq_len(at)], ignore.case = TRUE)
  attr_lines <- lines[which(is_attr)]
  nm <- sub("^@attribute\\s+('[^']*'|\"[^\"]*\"|\\S+).*$", "\\1", attr_lines, ignore.case = TRUE)
  nm <- gsub("^['\"]|['\"]$", "", nm)
  lab <- which(nm %in% labels)
  feat <- setdiff(seq_along(nm), lab)
  kept <- c(head(feat, keep), head(lab, 12))
  data <- head(lines[-seq_len(at)], rows)
  data <- data[nzchar(data)]
  new_index <- match(seq_along(nm), kept) - 1L
  rows <- vapply(data, function(r) {
    if (startsWith(r, "{")) {
      e <- strsplit(gsub("[{}]", "", r), ",")[[1]]
      i <- as.integer(sub(" .*", "", e)) + 1L
      v <- sub("^\\S+ ", "", e)
      ok <- !is.na(new_index[i])
      o <- order(new_index[i][ok])
      paste0("{", paste(new_index[i][ok][o], v[ok][o], collapse = ","), "}")
    } else {
      paste(strsplit(r, ",")[[1]][kept], collapse = ",")
    }
  }, "")
  list(header = c(lines[1], attr_lines[kept], "@data"), rows = unname(rows),
       labels = nm[intersect(kept, lab)], nfeat = min(keep, length(feat)))
}

files <- list.files(data_dir, "\\.arff$", recursive = TRUE, full.names = TRUE)
for (f in files) {
  base <- sub("\\.arff$", "", basename(f))
  xml_file <- list.files(dirname(f), "\\.xml$", full.names = TRUE)[1]
  xml <- readLines(xml_file, warn = FALSE)
  labels <- sub('.*name="([^"]*)".*', "\\1", grep("<label ", xml, value = TRUE))
  s <- shrink(f, labels)
  kept_xml <- c(xml[1:2], sprintf('<label name="%s"></label>', s$labels), "</labels>")
  put("fuzz_arff", base, c(txt(kept_xml), as.raw(0), txt(c(s$header, s$rows))))
  # MEKA: the labels first ("-C n") or last ("-C -n") in the relation name
  meka <- s$header
  meka[1] <- paste0("@relation '", base, ": -C -", length(s$labels), "'")
  put("fuzz_meka", base, txt(c(meka, s$rows)))
  # LIBSVM: the labels present, then index:value (1-based) of the features
  lib <- vapply(s$rows, function(r) {
    if (startsWith(r, "{")) {
      e <- strsplit(gsub("[{}]", "", r), ",")[[1]]
      i <- as.integer(sub(" .*", "", e))
      v <- sub("^\\S+ ", "", e)
    } else {
      v <- strsplit(r, ",")[[1]]
      i <- seq_along(v) - 1L
    }
    is_lab <- i >= s$nfeat
    labs <- i[is_lab & v != "0"] - s$nfeat
    feat <- !is_lab & suppressWarnings(as.numeric(v)) %in% NA == FALSE & v != "0"
    pairs <- if (any(feat)) paste0(i[feat] + 1L, ":", v[feat], collapse = " ") else ""
    paste0(paste(labs, collapse = ","), " ", pairs)
  }, "")
  put("fuzz_libsvm", base, c(as.raw(0), as.raw(0), txt(unname(lib))))
}

# The syntax the data sets leave out.
arff_small <- c(
  "% a comment", "@RELATION 'toy: -C 2' % trailing comment",
  "@attribute 'a b' {0,1}", "@attribute \"c\\\"d\" {1,0}",
  "@attribute x NUMERIC", "@attribute y integer", "@attribute z real",
  "@attribute col {red, 'light blue', \"dark\\tgreen\"}",
  "@attribute s string", "@attribute d date \"yyyy-MM-dd\"", "@attribute w {0,1,2}",
  "@data",
  "1,0,1.5,-2,3e-2,red,'hello, world',\"2020-01-01\",2",
  "?,1,?,0,inf,'light blue',x,?,0,{2.5}",
  "{0 1,2 -0.5,5 \"dark\\tgreen\",10 1}",
  "{}", "% only a comment", "0,0,1e308,1e-320,-0,?,'',?,1 % end",
  "\r")
put("fuzz_arff", "syntax", c(txt(c('<labels><!-- <label name="x"> -->',
                                   "<label name='a b'/><label name='c\"d'></label></labels>")),
                             as.raw(0), txt(arff_small)))
put("fuzz_arff", "syntax-last", txt(arff_small))
put("fuzz_meka", "syntax", txt(arff_small))
put("fuzz_meka", "bom-crlf", c(as.raw(c(0xef, 0xbb, 0xbf)),
                               charToRaw(paste0(paste(c("@relation 'r -C -1'", "@attribute a numeric",
                                                        "@attribute l {0,1}", "@data", "1,1", "{0 2}"),
                                                      collapse = "\r\n"), "\r\n"))))
put("fuzz_libsvm", "syntax", c(as.raw(c(1, 0)), txt(c(
  "# comment", "1,3 1:0.5 3:-1e-3 # trailing", " 2:1", "", "0 1:inf 2:nan",
  "5,-1,+2 7:1", "4"))))
put("fuzz_libsvm", "ncol", c(as.raw(c(2, 5)), txt(c("0 0:1 4:2", "1,2 1:1"))))
