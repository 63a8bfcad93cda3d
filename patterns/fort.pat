# Patrol patterns of level 3, "The border fort" (maps/fort.map).
# Coordinates are map cells: x = column, y = row, 0-based from the top-left.
# `patrol show patterns/fort.pat --pattern NAME --map maps/fort.map` previews one.

# The gate warden stands inside the main gate and sweeps the field beyond it: control
# instructions that never step (a look, a pause).
pattern gate_watch
  kind control
  heading 90
  look 3s angles=-70,70
  wait 1s
  at_end loop
end

# The drill sergeant marches a square on the parade ground: a thruster pattern (Bourg's
# physics patterns), so the square drifts a little and each lap differs.
pattern drill_square
  kind thrust
  repeat 4
    fire none distance=9
    fire port turn=90
  end
end

# The runner jogs round the inside of the parade ground's fence: waypoints, followed by
# steering (tile units: the centre of tile x,y is x+0.5,y+0.5).
pattern parade_round
  kind waypoints
  points 15.5,5.5 38.5,5.5 38.5,23.5 15.5,23.5
  closed yes
  radius 0.6
end

# The postern guard walks the north lane end to end, looking about at each end.
pattern north_lane
  kind path
  points 14,1 look=2s angles=-90,90 53,1 look=2s angles=-90,90
  at_end reverse
end

# The kennelman walks the lanes by the kennels: up the east lane, along the south lane.
pattern kennel_beat
  kind path
  points 41,4 wait=1s 41,23 53,23 wait=1s
  at_end reverse
end
