# Patrol patterns of level 2, "The sleeping abbey" (maps/abbey.map).
# Coordinates are map cells: x = column, y = row, 0-based from the top-left.
# `patrol show patterns/abbey.pat --pattern NAME --map maps/abbey.map` previews one.

# The porter stands outside the main gate and sweeps his gaze over the gravel court: a
# control pattern that never steps (a look, a pause, a look the other way).
pattern porter_watch
  kind control
  heading 90
  look 3s angles=-80,80
  wait 1s
  at_end loop
end

# The prior walks the cloister's gravel walk, stopping at each corner to look along it.
pattern cloister_walk
  kind path
  points 15,2 34,2 look=2s angles=-90,0
  points 34,14 look=2s angles=90,0
  points 15,14 look=2s angles=-90,0
  points 15,2
end

# The sacristan shuffles through the church at random: a 0/1 matrix of its aisles and
# nave (the church's floor, x 1..12, y 1..10; the walker steps on boards silently).
pattern church_shuffle
  kind matrix
  rows
    111111111111
    1..........1
    1..........1
    1..........1
    111111111111
    1..........1
    1..........1
    1..........1
    1..........1
    111111111111
  end
  start 0,0
end

# The gardener walks the orchard's rows by the exit, west to east and back.
pattern orchard_rows
  kind path
  points 38,6 45,6 wait=1s 45,10 38,10 wait=1s 38,6
end
