"""time_cue: the calendar date a query names (day, month, year), and what falls in it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from moraine.terms.timecue import Period, time_cue


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("What painting did she show on October 13, 2023?", Period(2023, 10, 13)),
        ("What did Gina find for her store on 1 February, 2023?", Period(2023, 2, 1)),
        ("the deploy on 3rd March", Period(None, 3, 3)),
        ("What setback did she face in October 2023?", Period(2023, 10)),
        ("When did she go camping in June?", Period(None, 6)),
        ("the migration we did during 2024", Period(2024)),
        ("31 February 2023", Period(2023, 2)),  # no such day: the month
    ],
)
def test_explicit_dates_are_read(text: str, period: Period) -> None:
    assert time_cue(text) == period


@pytest.mark.parametrize(
    "text",
    [
        "what may have broken the build",  # the verb, not the month
        "in may the tests failed",  # lowercase month alone: too often the verb
        "error 2023 from the linker",  # a number, not a year
        "what did we change last week",  # relative: nothing says relative to what
    ],
)
def test_other_text_names_no_date(text: str) -> None:
    assert time_cue(text) is None


def test_a_day_covers_the_week_after_it_and_a_month_every_year() -> None:
    day = Period(2023, 10, 13)
    assert day.contains(datetime(2023, 10, 13, 23, 59, tzinfo=UTC))
    assert day.contains(datetime(2023, 10, 19, tzinfo=UTC))
    assert not day.contains(datetime(2023, 10, 20, tzinfo=UTC))
    assert not day.contains(datetime(2023, 10, 12, tzinfo=UTC))
    assert Period(None, 12, 30).contains(
        datetime(2024, 1, 2, tzinfo=UTC)
    )  # the week after runs into next year
    june = Period(None, 6)
    assert june.contains(datetime(2019, 6, 1, tzinfo=UTC)) and june.contains(
        datetime(2024, 6, 30, tzinfo=UTC)
    )
    assert not june.contains(datetime(2024, 7, 1, tzinfo=UTC))
    assert not Period(2024).contains(None)
