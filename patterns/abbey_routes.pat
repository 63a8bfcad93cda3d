# Player routes for maps/abbey.test (level 2, "The sleeping abbey"): `patrol test maps/abbey.test`.
# Replay one: patrol sim maps/abbey.map -v --player-pattern patterns/abbey_routes.pat:NAME

# The short way, run: over the gravel court, through the main gate, across the cloister.
pattern dash
  kind path
  gait run
  points 2,29 11,29 24,16 24,13 35,2 41,2 43,0
  at_end stop
end

# The quiet way at a walk: the dozing cook hears the steps in his kitchen.
pattern walk_in
  kind path
  points 2,29 4,27 4,12 6,12 6,10
  at_end stop
end

# Sneaking through the kitchen, then (once the sacristan has gone east) straight up the
# nave over the squeaky boards: the first board he hears is 6,6.
pattern boards
  kind path
  gait sneak
  points 2,29 4,27 wait=8.5s 4,12 6,12 6,2 12,2
  at_end stop
end

# The way out unseen and unheard, sneaking all the way (found by
# `patrol solve maps/abbey.map --margin-time 1`): through the kitchen past the cook, up the
# church's west aisle while the sacristan is away, along the cloister's north walk behind
# the prior, and through the orchard to the gate.
pattern sneak
  kind control
  origin 2,29
  heading 135
  gait sneak
  wait 18
  backward 2
  right 135
  forward 12
  right 45
  forward 2
  right 45
  right 90
  backward 3
  right 135
  forward 5
  right 90
  forward 3
  right 45
  backward 1
  forward 1
  backward 1
  forward 3
  backward 1
  forward 1
  backward 3
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 28
  backward 1
  forward 2
  backward 1
  forward 6
  backward 2
  forward 1
  backward 1
  forward 1
  backward 1
  forward 1
  backward 1
  forward 6
  right 135
  backward 2
  at_end stop
end
