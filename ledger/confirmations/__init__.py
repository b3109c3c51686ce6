"""The table agrees on each hand: an opponent (or every other player) confirms a recorded hand in one tap or
disputes it with a reason; a correction asks again."""
