# Patrol patterns of level 4, "The lamplit cellars" (maps/cellars.map).
# Coordinates are map cells: x = column, y = row, 0-based from the top-left.
# `patrol show patterns/cellars.pat --pattern NAME --map maps/cellars.map` previews one.

# The steward stands by the hall's north wall and sweeps his gaze over the hall.
pattern steward_watch
  kind control
  heading 135
  look 4s angles=-70,70
  wait 1s
  at_end loop
end

# The lamplighter walks the cellar's north half with his lantern, round and round.
pattern lamp_round
  kind path
  points 3,2 11,2 look=1s angles=-90,0
  points 11,12
  points 3,12 look=1s angles=90,0
  points 3,2
end
