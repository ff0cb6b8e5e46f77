"""How many GPUs a counting phrase states, in any language and order: N nodes each holding M
GPUs, N systems, N accelerators named by model (evaltool/normalize/count_phrases.py, read
through shapes.count_facts)."""

from __future__ import annotations

import pytest

from evaltool.normalize.shapes import count_facts


@pytest.mark.parametrize("text, nodes, per_node", [
    ("vier HGX-Knoten à 8 GPUs", 4, 8),
    ("Four Dell XE9680 servers, each fitted with eight NVIDIA H100 GPUs", 4, 8),
    ("4 servers, each with 8 GPUs", 4, 8),
    ("6 serveurs HGX, chacun avec 8 GPU H100", 6, 8),
    ("2 serwery, każdy z 8 GPU", 2, 8),
    ("zwei Server, jeweils mit acht H100", 2, 8),
    ("tres servidores HGX con 8 GPUs", 3, 8),
    ("3 nodi con 8 GPU ciascuno", 3, 8),
])
def test_nodes_each_holding_gpus_are_nodes_and_gpus_of_each(
        text: str, nodes: int, per_node: int) -> None:
    facts = count_facts(text)
    assert (facts.get("node_count"), facts.get("gpus_per_node")) == (nodes, per_node)
    # what one node holds is never the order's count
    assert facts.get("gpu_count") in (None, nodes * per_node)


@pytest.mark.parametrize("text, nodes", [
    ("8 × HGX H100 nodes", 8),
    ("4x DGX B200 systems", 4),
    ("6 x HGX H200 Server", 6),
])
def test_a_count_of_systems_is_a_count_of_nodes(text: str, nodes: int) -> None:
    assert count_facts(text).get("node_count") == nodes
    assert "gpu_count" not in count_facts(text)


@pytest.mark.parametrize("text, gpus", [
    ("64 × H100 SXM 80GB", 64),
    ("128 x NVIDIA A100 80GB", 128),
    ("Lieferumfang: 32 × H200 SXM", 32),
])
def test_more_accelerators_than_one_server_holds_are_the_orders_count(
        text: str, gpus: int) -> None:
    assert count_facts(text).get("gpu_count") == gpus


@pytest.mark.parametrize("text", [
    "8 x A100",                 # may be one server's eight
    "16 x H100 80GB SXM5",      # may be one sixteen-card server's
    "each with 64 x H100",      # what each holds
    "64 x H100 hours",          # hours of GPU time
])
def test_a_count_that_may_be_one_servers_or_is_no_count_is_not_the_orders(text: str) -> None:
    assert "gpu_count" not in count_facts(text)


@pytest.mark.parametrize("text, per_node", [
    ("Pro Rack 18 Knoten mit je 4 GPUs", 4),
    ("18 trays per rack with 4 GPUs each", 4),
])
def test_the_nodes_of_one_rack_are_not_the_orders(text: str, per_node: int) -> None:
    facts = count_facts(text)
    assert facts.get("gpus_per_node") == per_node and "node_count" not in facts


def test_gpus_in_total_over_several_servers_are_shared_among_them() -> None:
    assert count_facts("2 servers with 16 GPUs in total") == {
        "node_count": 2, "gpu_count": 16, "gpus_per_node": 8}


def test_more_gpus_than_one_server_holds_are_all_the_servers() -> None:
    assert count_facts("Cluster of 32 nodes with 256 GPUs") == {
        "node_count": 32, "gpu_count": 256, "gpus_per_node": 8}
    # said of each (a rack system), it is what each holds
    assert count_facts("2 GB200 NVL72 systems with 72 GPUs each").get("gpus_per_node") == 72


@pytest.mark.parametrize("text, gpus", [
    ("1,024 × H100 SXM", 1024),
    ("2,048 x NVIDIA B200", 2048),
])
def test_a_count_with_a_thousands_separator_is_read_whole(text: str, gpus: int) -> None:
    assert count_facts(text).get("gpu_count") == gpus


@pytest.mark.parametrize("text", [
    "8 GB per node with 4 GPUs",
    "512 GB RAM je Server mit 8 GPUs",
])
def test_a_size_before_a_node_is_no_count_of_nodes(text: str) -> None:
    assert count_facts(text).get("node_count") not in (8, 512)


@pytest.mark.parametrize("text", [
    "a 4-node cluster with 32 GPUs",
    "ein 4-Knoten-Cluster mit 32 GPUs",
    "un clúster de 4 nodos con 32 GPU",
])
def test_a_cluster_of_n_nodes_holds_its_gpus_in_all(text: str) -> None:
    facts = count_facts(text)
    assert facts.get("gpu_count") == 32 and facts.get("gpus_per_node") in (None, 8)
