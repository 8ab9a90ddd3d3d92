# Expected values of stats::cluster_covariance's test (src/stats/cluster_covariance.rs), R 4.2.2 with
# sandwich 3.0-2 (Debian: r-base-core, r-cran-sandwich). Run: Rscript tests/data/league_cluster_vcov.R
# Ten deals of a three-policy Bradley-Terry design: S = G1 wins, T = decisive comparisons,
# one column per design row (a-b, b-a, a-c, c-a, b-c, c-b).
S <- matrix(c(2,2,3,1,0,0,2,3,3,2,2,1,1,0,2,1,1,1,0,1,1,1,3,2,3,1,1,3,2,1,3,1,3,3,2,0,2,1,0,1,0,1,1,1,2,0,0,1,3,1,3,2,2,1,2,1,1,1,1,1), nrow=10, byrow=TRUE)
T <- matrix(c(3,2,3,2,2,2,2,3,3,2,2,3,3,3,3,3,2,3,2,3,3,3,3,3,3,3,3,3,3,3,3,2,3,3,3,3,3,3,3,2,3,3,2,2,3,3,3,3,3,3,3,3,2,2,3,3,3,3,3,3), nrow=10, byrow=TRUE)
library(sandwich)
X <- matrix(c(-1,0, 1,0, 0,-1, 0,1, 1,-1, -1,1), ncol=2, byrow=TRUE)
# ungrouped rows with their deal
y <- c(); x1 <- c(); x2 <- c(); deal <- c()
for (g in 1:nrow(S)) for (r in 1:6) {
  s <- S[g, r]; t <- T[g, r]
  y <- c(y, rep(1, s), rep(0, t - s)); x1 <- c(x1, rep(X[r,1], t)); x2 <- c(x2, rep(X[r,2], t)); deal <- c(deal, rep(g, t))
}
fit <- glm(y ~ x1 + x2, family = binomial, control = glm.control(epsilon = 1e-14, maxit = 100))
options(digits = 17)
print(coef(fit))
print(vcov(fit))
print(vcovCL(fit, cluster = deal, type = "HC0"))
print(sqrt(diag(vcovCL(fit, cluster = deal, type = "HC0"))))
X1 <- cbind(1, x1, x2); p <- as.vector(plogis(X1 %*% coef(fit)))
print(solve(t(X1) %*% (X1 * (p*(1-p))))[2,2])
B <- solve(t(X1) %*% (X1 * (p*(1-p))))
M <- matrix(0, 3, 3)
for (g in 1:nrow(S)) { i <- deal == g; u <- colSums(X1[i, , drop=FALSE] * (y[i] - p[i])); M <- M + u %*% t(u) }
G <- nrow(S)
V <- G / (G - 1) * B %*% M %*% B
print(V)
print(B[2,2])
