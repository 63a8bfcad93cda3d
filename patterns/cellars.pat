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

# The lamplighter carries his lantern from the cellar's east side through the south arch,
# along the hall's south aisle and back, up and down.
pattern lamp_round
  kind path
  points 11,12 11,16 22,16 look=1s angles=-90,0
  points 11,16
end
