"""tools/campaign.py: a cell's chunks add up to one row, a stopped campaign does not play a cell twice."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("campaign_tool", ROOT / "tools" / "campaign.py")
campaign = importlib.util.module_from_spec(spec)
sys.modules["campaign_tool"] = campaign
spec.loader.exec_module(campaign)


def test_a_pair_names_two_players_and_a_single_name_plays_itself():
    assert campaign.split_pair("tactical:hard:tactical") == ("tactical:hard", "tactical")
    assert campaign.split_pair("tactical:random") == ("tactical", "random")
    assert campaign.split_pair("greedy") == ("greedy", "greedy")


def test_the_chunks_of_a_cell_make_one_row_and_a_done_cell_is_not_played_again(tmp_path, monkeypatch):
    out = tmp_path / "ai.jsonl"
    argv = ["campaign", "--out", str(out), "--games", "4", "--chunk", "2", "--jobs", "1",
            "--rules", "voyageurs_aerial", "--pairs", "tactical:random"]
    monkeypatch.setattr(sys, "argv", argv)
    assert campaign.main() == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert (row["rules"], row["map"], row["a"], row["b"], row["games"]) == ("voyageurs_aerial", "sky_deck", "tactical",
                                                                          "random", 4)
    assert sum(row["wins"].values()) + row["draws"] == 4
    assert campaign.main() == 0
    assert len(out.read_text().splitlines()) == 1
