import pytest

from codelog.errors import RecipeError
from codelog.outcomes import CODENET_STATUSES, OUTCOME_NAMES, UNSCORABLE, Outcome
from codelog.recipe import Recipe, load_recipe

EXPECTED = {
    "Accepted": ("accepted", 1.0),
    "Wrong Answer": ("wrong_answer", -0.1),
    "WA: Presentation Error": ("presentation_error", -0.1),
    "Time Limit Exceeded": ("time_limit", -0.5),
    "Memory Limit Exceeded": ("memory_limit", -0.5),
    "Output Limit Exceeded": ("output_limit", -0.6),
    "Runtime Error": ("runtime_error", -0.6),
    "Compile Error": ("compile_error", -1.0),
    "Query Limit Exceeded": ("query_limit", -0.1),
    "Judge Not Available": (UNSCORABLE, None),
    "Internal error": (UNSCORABLE, None),
    "Judge System Error": (UNSCORABLE, None),
}


@pytest.mark.parametrize("status", CODENET_STATUSES)
def test_every_codenet_status_maps_to_its_outcome_and_reward(status):
    recipe = load_recipe()
    outcome, reward = EXPECTED[status]
    assert recipe.statuses[status] == outcome
    assert recipe.rewards.get(outcome) == reward


def test_all_twelve_codenet_statuses_are_covered():
    assert len(CODENET_STATUSES) == 12
    assert set(CODENET_STATUSES) <= set(load_recipe().statuses)


def test_only_accepted_is_correct():
    assert [o for o in Outcome if o.is_correct] == [Outcome.ACCEPTED]


def test_status_matching_is_exact_so_near_misses_are_unknown():
    statuses = load_recipe().statuses
    assert "accepted" not in statuses
    assert "Internal Error" not in statuses  # CodeNet spells it with a lower-case e


def test_recipe_rejects_a_status_mapped_to_a_non_outcome():
    with pytest.raises(RecipeError, match="not an outcome"):
        Recipe.from_dict({"statuses": {"OK": "great"}, "rewards": {}})


def test_recipe_requires_a_reward_for_every_mapped_outcome():
    with pytest.raises(RecipeError, match="no reward"):
        Recipe.from_dict({"statuses": {"OK": "accepted"}, "rewards": {}})


def test_recipe_round_trips_through_its_dict():
    recipe = load_recipe()
    assert Recipe.from_dict(recipe.to_dict()) == recipe
    assert set(recipe.rewards) <= OUTCOME_NAMES
