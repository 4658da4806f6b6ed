"""The papers behind each family: title, authors, venue and what the spec could read of them.

One :class:`Paper` per spec (``shared/papers/NN_*.md``), and :data:`FAMILY_PAPERS`, which lists
for every name of :data:`reference._families.FAMILIES` the specs it implements.  The
documentation site's family pages are generated from this table and the registries.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FAMILY_PAPERS", "PAPERS", "Paper"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Paper:
    """A paper as its spec identifies it.

    Attributes:
        spec: the spec's number (``1`` for ``01_ssn_zero_sum_games.md``).
        title: the paper's title.
        authors: the authors, in the paper's order.
        venue: where it appeared (all are ICML 2026 papers).
        arxiv: the arXiv identifier, or ``""`` when none was found.
        sources: what the spec rests on: which parts were read, which were reconstructed.
    """

    spec: int
    title: str
    authors: tuple[str, ...]
    venue: str
    arxiv: str
    sources: str


PAPERS: dict[int, Paper] = {
    paper.spec: paper
    for paper in (
        Paper(
            spec=1,
            title="A Direct Second-Order Method for Solving Two-Player Zero-Sum Games",
            authors=("David Yang", "Yuan Gao", "Tianyi Lin", "Christian Kroer"),
            venue="ICML 2026",
            arxiv="2512.12910",
            sources="the abstract, the introduction's opening and the public reviews; the DRS "
            "operator and the Newton globalisation are reconstructed and checked numerically",
        ),
        Paper(
            spec=2,
            title="Singularity-aware Optimization via Randomized Geometric Probing: Towards "
            "Stable Non-smooth Optimization",
            authors=("Ruoran Xu", "Borong She", "Xiaobo Jin", "Qiufeng Wang"),
            venue="ICML 2026",
            arxiv="2605.29547",
            sources="the abstract and the official code (S-Adam and its LGI brake follow the code)",
        ),
        Paper(
            spec=3,
            title="A Fully First-Order Layer for Differentiable Optimization",
            authors=("Zihao Zhao", "Kai-Chia Mo", "Shing-Hei Ho", "Brandon Amos", "Kai Wang"),
            venue="ICML 2026",
            arxiv="2512.02494",
            sources="the official code, read in full; the exact error of the first-order "
            "gradient is derived",
        ),
        Paper(
            spec=4,
            title="The Theory and Practice of MAP Inference over Non-Convex Constraints",
            authors=(
                "Leander Kurscheidt",
                "Gabriele Masina",
                "Roberto Sebastiani",
                "Antonio Vergari",
            ),
            venue="ICML 2026",
            arxiv="2602.08681",
            sources="the abstract and summaries, then the paper as read by a third-party "
            "reproduction (its section 8); the algorithms' details are our design",
        ),
        Paper(
            spec=5,
            title="Stability and Generalization of Nonconvex Optimization with Heavy-Tailed Noise",
            authors=("Hongxu Chen", "Ke Wei", "Xiaoming Yuan", "Luo Luo"),
            venue="ICML 2026",
            arxiv="2601.19730",
            sources="the abstract, the problem setting and the definitions; the bounds are derived",
        ),
        Paper(
            spec=6,
            title="Mirror Descent Under Generalized Smoothness",
            authors=("Dingzhi Yu", "Wei Jiang", "Hongyi Tao", "Yuanyu Wan", "Lijun Zhang"),
            venue="ICML 2026",
            arxiv="2502.00753",
            sources="the abstract, the results table, the definition and lemmas; the rates are "
            "the classical ones",
        ),
        Paper(
            spec=7,
            title="DPO Unchained: Your Training Algorithm is Secretly Disentangled in Human "
            "Choice Theory (and its Loss' Convexity is Dispensable)",
            authors=(
                "Wenxuan Zhou",
                "Shujian Zhang",
                "Brice Magdalou",
                "John Lambert",
                "Ehsan Amid",
                "Richard Nock",
                "Andrew Hard",
            ),
            venue="ICML 2026",
            arxiv="2507.07855",
            sources="the abstract, the introduction and the theorems as quoted by a public audit",
        ),
        Paper(
            spec=8,
            title="Is Spurious Correlation Removal Always Learnable?",
            authors=(
                "Yibo Zhou",
                "Bo Li",
                "Hai-Miao Hu",
                "Hanzi Wang",
                "Xiaokang Zhang",
                "Ruifan Zhang",
            ),
            venue="ICML 2026",
            arxiv="2606.12930",
            sources="the abstract and third-party notes quoting definitions and theorems; the "
            "estimator is ours",
        ),
        Paper(
            spec=9,
            title="Inconsistency-Aware Minimization: Improving Generalization with Unlabeled Data",
            authors=("Hee-Sung Kim", "Hyeonseong Kim", "Sungyoon Lee"),
            venue="ICML 2026",
            arxiv="2605.31324",
            sources="the official code",
        ),
        Paper(
            spec=10,
            title="TSP with Predictions: Heatmap to Tour with Provable Guarantees",
            authors=("Marek Eliáš", "Fabrizio Grandoni", "Adam Polak", "Eleonora Vercesi"),
            venue="ICML 2026 (PMLR 306)",
            arxiv="",
            sources="the abstract only; the decoder family is designed with its own proof",
        ),
        Paper(
            spec=11,
            title="Deep Networks Learn Deep Hierarchical Models",
            authors=("Amit Daniely",),
            venue="ICML 2026",
            arxiv="2601.00455",
            sources="the abstract and a summary of the introduction; the model is made "
            "concrete by us",
        ),
        Paper(
            spec=12,
            title="Ski Rental with Distributional Predictions of Unknown Quality",
            authors=("Qiming Cui", "Michael Dinitz"),
            venue="ICML 2026",
            arxiv="2602.21104",
            sources="the paper's full source",
        ),
        Paper(
            spec=13,
            title="Scalable and Stable Estimation of Amari α-Divergence using Random Fourier "
            "Features",
            authors=("Jiaolong Wang", "Fode Zhang", "Lingrui Wang"),
            venue="ICML 2026",
            arxiv="",
            sources="the abstract only; the objective is our construction",
        ),
        Paper(
            spec=14,
            title="Lions and Muons: Optimization via Stochastic Frank-Wolfe",
            authors=("Maria-Eleni Sfyraki", "Jun-Kun Wang"),
            venue="ICML 2026",
            arxiv="2506.04192",
            sources="part of the paper; Muon after its reference code; the heavy-tailed robust "
            "variants are reconstructed",
        ),
        Paper(
            spec=15,
            title="The Stability of Singular Distribution: A Spectral Perspective on the "
            "Two-Phase Dynamics of Language Model Pre-training",
            authors=("Hongtao Zhang", "Wenjie Zhou", "Chenxi Jia", "Wei Chen", "Xueqi Cheng"),
            venue="ICML 2026",
            arxiv="2605.26489",
            sources="third-party notes; the paper's theorem was not recovered",
        ),
        Paper(
            spec=16,
            title="Rational Neural Networks have Expressivity Advantages",
            authors=("Maosen Tang", "Alex Townsend"),
            venue="ICML 2026",
            arxiv="2602.12390",
            sources="a partial reading of the paper and the first author's experiment and "
            "figure code",
        ),
        Paper(
            spec=17,
            title="Provably Learning Attention with Queries",
            authors=("Satwik Bhattamishra", "Kulin Shah", "Michael Hahn", "Varun Kanade"),
            venue="ICML 2026 (PMLR 306)",
            arxiv="2601.16873",
            sources="the abstract and two paper notes; the constants are derived",
        ),
        Paper(
            spec=18,
            title="Finite and Corruption-Robust Regret Bounds in Online Inverse Linear "
            "Optimization under M-Convex Action Sets",
            authors=("Taihei Oki", "Shinsaku Sakaue"),
            venue="ICML 2026",
            arxiv="2602.01682",
            sources="summaries, then the theorems as quoted by a reproduction and a later "
            "preprint; the learner's loop is reconstructed",
        ),
        Paper(
            spec=19,
            title="Asymmetric Perturbation in Solving Bilinear Saddle-Point Optimization",
            authors=("Kenshi Abe", "Mitsuki Sakamoto", "Kaito Ariu", "Atsushi Iwasaki"),
            venue="ICML 2026",
            arxiv="2506.05747",
            sources="detailed notes on the paper, then the official code (the update order and "
            "settings follow it); the inner stopping rule is ours",
        ),
    )
}

#: family -> the specs it implements, the main one first.
FAMILY_PAPERS: dict[str, tuple[int, ...]] = {
    "activations": (16,),
    "attention_queries": (17,),
    "constrained_map": (4,),
    "divergence": (13,),
    "extensive": (19,),
    "games": (1,),
    "hierarchical": (11,),
    "inconsistency": (9,),
    "invariance": (8,),
    "inverse_optimization": (18,),
    "mirror_descent": (6,),
    "optimizers": (2, 14, 5),
    "perturbation": (19,),
    "preference": (7,),
    "qp_layers": (3,),
    "ski_rental": (12,),
    "spectral": (15,),
    "stability": (5,),
    "tsp": (10,),
}
