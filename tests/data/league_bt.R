# Bradley-Terry ratings of a league as a grouped logistic regression, the reference for
# analysis::league_fit (tests/it/league.rs). Run with R 4.2.2:
#   Rscript tests/data/league_bt.R tests/data/league_counts.csv > tests/data/league_bt_r.csv
# Model: logit P(G1 wins a decisive game) = seat + r[g1] - r[g2], r["greedy"] = 0.
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], stringsAsFactors = FALSE)
pols <- c("greedy", "hoarder", "counter", "random")
ref <- "greedy"
others <- setdiff(pols, ref)
X <- sapply(others, function(p) (d$g1 == p) - (d$g2 == p))
fit <- glm(cbind(d$g1_wins, d$g2_wins) ~ X, family = binomial)
s <- summary(fit)$coefficients
out <- data.frame(
  term = c("(Intercept)", others),
  estimate = sprintf("%.15g", s[, 1]),
  std_error = sprintf("%.15g", s[, 2])
)
out <- rbind(out, data.frame(term = "deviance", estimate = sprintf("%.15g", deviance(fit)),
                             std_error = sprintf("%d", fit$df.residual)))
cov <- vcov(fit)
out <- rbind(out, data.frame(term = "cov_hoarder_counter",
                             estimate = sprintf("%.15g", cov["Xhoarder", "Xcounter"]),
                             std_error = "NA"))
cat("# ", R.version.string, ", glm(cbind(g1_wins, g2_wins) ~ X, family = binomial)\n", sep = "")
write.csv(out, row.names = FALSE, quote = FALSE)
