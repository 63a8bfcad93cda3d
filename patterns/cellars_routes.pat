# Player routes for maps/cellars.test (level 4, "The lamplit cellars"): `patrol test maps/cellars.test`.
# Replay one: patrol sim maps/cellars.map -v --player-pattern patterns/cellars_routes.pat:NAME

# The short way, run: along the cellar's south wall, through the south arch and straight
# over the great hall, through the hall torch's pool, to the stair.
pattern dash
  kind path
  gait run
  points 2,17 3,16 17,16 29,4 29,1 30,1 30,0
  at_end stop
end

# The same way at a walk, at once: the lamplighter's lantern lights the walker at the arch.
pattern walk_lit
  kind path
  points 2,17 3,16 17,16 29,4 29,1 30,1 30,0
  at_end stop
end

# The way out unseen and unheard, sneaking all the way (found by
# `patrol solve maps/cellars.map --margin-time 2`): through the south arch behind the
# lamplighter, along the hall's dark south aisle, round the far edge of the hall torch's
# pool (out of the steward's reach), up to the east wall and north along it to the stair,
# 2 tiles from the steward: a walker there is seen even in the dark.
pattern sneak
  kind control
  origin 2,17
  heading 135
  gait sneak
  backward 9
  right 135
  forward 4
  right 90
  forward 3
  right 45
  forward 9
  right 90
  backward 7
  right 135
  forward 6
  at_end stop
end
