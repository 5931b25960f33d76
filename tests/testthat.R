library(testthat)
library(mlss)

test_check("mlss")
