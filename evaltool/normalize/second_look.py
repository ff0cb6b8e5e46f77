"""A second look, after the labelled cells, lines and texts are read, for the fields no
synonym found: a line that is a label and its value, a storage price whose unit is in its
label or key, a date named by its label's words, the contract sheet's sentences, a ladder
of service credits, a fee paid once, a sentence saying nothing is paid up front, a server
line's cards and power, a power figure stated per rack, a bare number beside a figure with
its unit, a sentence naming another accelerator."""

from __future__ import annotations

from evaltool.normalize.credit_ladder import credit_cap_from_ladder
from evaltool.normalize.date_roles import dates_by_role
from evaltool.normalize.named_models import facts_of_named_models
from evaltool.normalize.no_upfront import no_upfront
from evaltool.normalize.one_off_fees import upfront_from_one_off_fee
from evaltool.normalize.rack_power import power_per_rack
from evaltool.normalize.segment_facts import facts_in_segments
from evaltool.normalize.server_lines import server_line_facts
from evaltool.normalize.slots import SlotReaders
from evaltool.normalize.stated_units import bare_numbers_beside_units
from evaltool.normalize.unit_keys import priced_keys
from evaltool.normalize.value_lines import values_on_lines


def second_look(b: SlotReaders) -> None:
    values_on_lines(b)
    priced_keys(b)
    dates_by_role(b)
    facts_in_segments(b)
    credit_cap_from_ladder(b)  # after the sentences: a cap in words wins
    upfront_from_one_off_fee(b)  # before 'no upfront': a stated fee wins
    no_upfront(b)
    server_line_facts(b)
    power_per_rack(b)
    bare_numbers_beside_units(b)
    facts_of_named_models(b)
