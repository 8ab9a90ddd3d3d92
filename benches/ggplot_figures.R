# The report's Figure 2, Table 3 heatmap and break-even chart drawn again with ggplot2, from the
# pipeline's own results.json, as a reference to compare our plotters figures against (issue 11,
# item 3). Not part of the report; nothing reads its output.
#
#   Rscript benches/ggplot_figures.R outputs/results.json /tmp/ggplot [study]
#
# R 4.2.2, ggplot2 3.4.1, jsonlite (Debian packages r-base-core, r-cran-ggplot2,
# r-cran-jsonlite). Writes <out>/<study>-figure2.png, -table3.png, -breakeven.png at 2x (the size
# in pixels of our PNGs: ggsave's width/height are our logical pixels at 96 dpi, dpi = 192).

suppressPackageStartupMessages({
  library(jsonlite)
  library(ggplot2)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2) stop("usage: Rscript ggplot_figures.R results.json out_dir [study]")
res <- fromJSON(args[1], simplifyVector = FALSE)
out <- args[2]
dir.create(out, showWarnings = FALSE, recursive = TRUE)
study <- if (length(args) >= 3) {
  Filter(function(s) s$name == args[3], res$studies)[[1]]
} else {
  res$studies[[1]]
}
name <- study$name
policies <- vapply(study$settings$policies, function(p) p$name, "")
k <- length(policies)
save <- function(plot, stem, w, h) {
  ggsave(file.path(out, paste0(name, "-", stem, ".png")), plot,
         width = w / 96, height = h / 96, dpi = 192, bg = "white")
}
theme_set(theme_bw(base_size = 12, base_family = "DejaVu Sans"))

# Figure 2: kept bins only, one panel per ordered matchup, shared axes (facet_grid's default).
bins <- do.call(rbind, lapply(study$figure2, function(p) {
  do.call(rbind, lapply(p$bins, function(b) {
    data.frame(g1 = p$g1_policy, g2 = p$g2_policy, delta = b$delta, n = b$n, wins = b$wins,
               rate = b$rate, lo = b$lo, hi = b$hi, kept = b$kept)
  }))
}))
bins <- bins[bins$kept, ]
bins$g1 <- factor(bins$g1, levels = policies)
bins$g2 <- factor(bins$g2, levels = policies)
fig2 <- ggplot(bins, aes(delta, rate)) +
  geom_hline(yintercept = 0.5, linetype = "dashed", colour = "grey45") +
  geom_vline(xintercept = 0, linetype = "dashed", colour = "grey45") +
  geom_ribbon(aes(ymin = lo, ymax = hi), fill = "#1f4e8c", alpha = 0.2) +
  geom_errorbar(aes(ymin = lo, ymax = hi), colour = "#1f4e8c", alpha = 0.6, width = 0.45) +
  geom_line(colour = "#1f4e8c") +
  geom_point(colour = "#1f4e8c", size = 1.2) +
  facet_grid(g1 ~ g2, labeller = labeller(g1 = function(x) paste(x, "(G1)"),
                                          g2 = function(x) paste("vs", x, "(G2)"))) +
  labs(x = expression(Delta[briscola] == B[G1] - B[G2]), y = "Pr(G1 wins)",
       title = bquote("Figure 2 (" * .(name) * "): Pr(G1 wins) among non-tied games by " *
                        Delta[briscola]))
save(fig2, "figure2", 34 + k * 300 + 12, 62 + k * 270 + 44)

# Table 3 heatmap with a diverging colour bar centred on 0.5.
t3 <- do.call(rbind, lapply(study$table3, function(c) {
  data.frame(g1 = c$g1_policy, g2 = c$g2_policy, rate = c$rate, lo = c$lo, hi = c$hi)
}))
t3$g1 <- factor(t3$g1, levels = rev(policies))
t3$g2 <- factor(t3$g2, levels = policies)
span <- max(0.05, abs(t3$rate - 0.5))
heat <- ggplot(t3, aes(g2, g1, fill = rate)) +
  geom_tile(colour = "grey45") +
  geom_text(aes(label = sprintf("%.3f\n[%.3f, %.3f]", rate, lo, hi)), size = 3.6) +
  scale_fill_gradient2(low = "#c85046", mid = "white", high = "#4278be", midpoint = 0.5,
                       limits = c(0.5 - span, 0.5 + span), name = "G1 win rate") +
  scale_x_discrete(position = "top") +
  labs(x = "G2's policy", y = "G1's policy",
       title = paste0("Table 3 (", name, "): G1 win rate, Wilson 95% interval")) +
  theme(panel.grid = element_blank())
save(heat, "table3", 120 + k * 170 + 120, 74 + k * 70 + 16)

# Break-even Delta per matchup (ours only: the paper's values live in published.toml).
be <- do.call(rbind, lapply(study$breakeven, function(b) {
  data.frame(label = paste0(b$g1_policy, " (G1) vs ", b$g2_policy, " (G2)"),
             delta = if (is.null(b$delta)) NA_real_ else b$delta)
}))
be$label <- factor(be$label, levels = rev(be$label))
brk <- ggplot(be, aes(delta, label)) +
  geom_vline(xintercept = 0, linetype = "dashed", colour = "grey45") +
  geom_point(colour = "#1f4e8c", size = 2.4) +
  labs(x = expression(Delta[briscola] == B[G1] - B[G2] ~ "at which G1 breaks even"), y = NULL,
       title = bquote("Break-even " * Delta[briscola] * " (" * .(name) * "): where Pr(G1 wins) = 0.5"))
save(brk, "breakeven", 760, 150 + 30 * nrow(be))
cat("wrote", file.path(out, paste0(name, "-{figure2,table3,breakeven}.png")), "\n")
