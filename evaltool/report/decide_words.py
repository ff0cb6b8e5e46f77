"""The decision stage's sentences: evaltool/decide returns numbers and names, this module
is where `decision_with_words` writes them.

It fills in what decide left unsaid: the question to send a vendor about each unknown field
that could move the decision, each "what would change the decision" item's `text` (and the
list of them, `sensitivity["what_would_change"]`), and the recommendation's headline,
confidence reason and trade-off (evaltool.report.recommend_words), or the headline when no
offer passes the gates.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from evaltool.report.recommend_words import change_sentence, recommendation_words
from evaltool.score.rubric import Rubric

# The question to send a vendor about a canonical field or contract metric it left unstated.
QUESTIONS: dict[str, str] = {
    "storage_write_gbyte_s": "What sustained write bandwidth (GB/s) does the shared file "
    "system give?",
    "storage_read_gbyte_s": "What sustained read bandwidth (GB/s) does the shared file "
    "system give?",
    "storage_capacity_tb": "How much shared storage capacity (TB) is included, and what is usable?",
    "storage_type": "Which shared file system is it (Lustre, GPFS, WEKA, VAST, DDN, NFS)?",
    "sla_uptime_pct": "What uptime do you commit to per month, with which service credits?",
    "sla_max_credit_pct": "What is the maximum service credit, as a % of the monthly fee?",
    "hw_replacement_hours": "Within how many hours do you replace a failed node?",
    "support_response_hours": "What is the committed response time for a severity-1 ticket?",
    "network_dedicated": "Is the inter-node network dedicated to us, or shared with other tenants?",
    "inter_node_fabric": "Which inter-node fabric is it (InfiniBand, RoCE, Ethernet)?",
    "orchestrator": "Which scheduler do we get (Slurm, Kubernetes)?",
    "root_access": "Do we get root/sudo on the nodes?",
    "egress_usd_per_gb": "What do you charge per GB of data egress?",
    "term_months": "What is the minimum commitment term?",
    "cpu_cores_per_node": "How many CPU cores per node?",
    "gpu_memory_gb": "How much memory per GPU?",
    "weak_commitments_high": "Please send the contract terms: what you commit to, by when, "
    "and the remedy if it is missed.",
    "missing_essentials": "Please send the contract terms: delivery date, uptime figure, "
    "remedy and exit right.",
    "exit_terms": "How do we export our data at the end of the term, in which format and at "
    "what cost?",
    "commitment_months": "What is the minimum commitment term?",
    "tooling_openness": "Which scheduler do we get, and do we get root/sudo on the nodes?",
}


def clarification_question(field: str, criterion_title: str) -> str:
    """What to ask a vendor about `field`; a plain request naming the criterion otherwise."""
    return QUESTIONS.get(field, f"Please state: {criterion_title.lower()}.")


# The headline when no offer passes the knock-out gates (it states no figure).
NO_ELIGIBLE_HEADLINE = "No offer passes the rubric's knock-out gates; none can be recommended."


def decision_with_words(sensitivity: MutableMapping[str, Any],
                        recommendation: MutableMapping[str, Any], rubric: Rubric) -> None:
    """Write, in place, the sentences of what decide found: each clarification question,
    each what-would-change item's `text` (its `figures` worded, so dropped), the list of those
    sentences, and the recommendation's headline, confidence reason and trade-off."""
    titles = {c.id: c.title for c in rubric.criteria}
    for q in sensitivity.get("clarification_questions") or []:
        q["question"] = clarification_question(
            str(q["field"]), titles.get(q["criterion"], str(q["field"])))
    detail = sensitivity.get("what_would_change_detail")
    if detail is not None:
        for item in detail:
            text = change_sentence(item, titles)
            item.pop("figures", None)
            item["text"] = text
        _insert_before(sensitivity, "what_would_change_detail", "what_would_change",
                       [item["text"] for item in detail])
    if "figures" in recommendation:
        worded = recommendation_words(recommendation)
        recommendation.clear()
        recommendation.update(worded)
    if recommendation.get("offer_id") is None and not recommendation.get("headline"):
        recommendation["headline"] = NO_ELIGIBLE_HEADLINE


def _insert_before(mapping: MutableMapping[str, Any], key: str, new: str, value: Any) -> None:
    """Set `mapping[new]` just before `key`, so the JSON reads the sentences, then the items."""
    pairs = [(k, v) for k, v in mapping.items() if k != new]
    mapping.clear()
    for k, v in pairs:
        if k == key:
            mapping[new] = value
        mapping[k] = v
