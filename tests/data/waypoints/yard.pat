# My patterns for yard.map

# A guard pacing the south hall, looking around at its east end.
pattern hall_pace
  kind path
  points 6,7 17,7 look=1s angles=-90,90
  at_end reverse
end

# A random walk over a ring with a bar, in the west room.
pattern west_ring
  kind matrix
  rows
    111111111
    1...1...1
    1...1...1
    1...1...1
    111111111
  end
end

# A steered round of the east room.
pattern east_round
  kind waypoints
  points 12.5,1.5 18.5,1.5 18.5,5.5 12.5,5.5
  closed yes
  radius 0.5
end
