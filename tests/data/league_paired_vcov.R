# Cluster-robust Bradley-Terry standard errors of a two-player league on paired deals, the
# reference for tests/it/league.rs (paired_league_errors_are_clustered_by_deal). R 4.2.2 with
# sandwich 3.0-2 (Debian: r-base-core, r-cran-sandwich). Run:
#   Rscript tests/data/league_paired_vcov.R tests/data/league_paired_deals.csv > tests/data/league_paired_r.csv
# Input: per pair (a, b) and per way a deal's two games went (x: G1's result with a in G1, y:
# G1's result with b in G1; 0 won, 1 lost, 2 drawn), the number of deals. Draws are not fitted;
# a deal (within its pair) is the cluster.
library(sandwich)
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], stringsAsFactors = FALSE)
pols <- c("greedy", "hoarder", "counter")
others <- setdiff(pols, "greedy")
g1 <- c(); g2 <- c(); y <- c(); cl <- c(); id <- 0
for (i in seq_len(nrow(d))) for (k in seq_len(d$deals[i])) {
  id <- id + 1
  if (d$x[i] != 2) { g1 <- c(g1, d$a[i]); g2 <- c(g2, d$b[i]); y <- c(y, d$x[i] == 0); cl <- c(cl, id) }
  if (d$y[i] != 2) { g1 <- c(g1, d$b[i]); g2 <- c(g2, d$a[i]); y <- c(y, d$y[i] == 0); cl <- c(cl, id) }
}
X <- sapply(others, function(p) (g1 == p) - (g2 == p))
fit <- glm(y ~ X, family = binomial, control = glm.control(epsilon = 1e-14, maxit = 100))
# The sandwich by hand at the optimum (vcovCL's bread is vcov(fit), R's weights one IRLS step
# behind; the two agree to about 8 digits).
X1 <- cbind(1, X); p <- as.vector(fitted(fit))
B <- solve(t(X1) %*% (X1 * (p * (1 - p))))
M <- matrix(0, ncol(X1), ncol(X1))
for (g in unique(cl)) { i <- cl == g; u <- colSums(X1[i, , drop = FALSE] * (y[i] - p[i])); M <- M + u %*% t(u) }
G <- length(unique(cl))
V <- G / (G - 1) * B %*% M %*% B
W <- vcovCL(fit, cluster = cl, type = "HC0")
cat(sprintf("# %s; sandwich %s\n", R.version.string, packageVersion("sandwich")))
cat("term,estimate,robust_se,vcovcl_se,model_se\n")
terms <- c("(Intercept)", others)
for (j in seq_along(terms)) cat(sprintf("%s,%.15g,%.15g,%.15g,%.15g\n", terms[j], coef(fit)[j], sqrt(V[j, j]), sqrt(W[j, j]), sqrt(B[j, j])))
cat(sprintf("clusters,%d,,,\n", G))
