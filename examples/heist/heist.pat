# The watchman's round: along the hall, down through the door into the west room, and back.
pattern round
  kind path
  points 16,1 3,1 3,8 look=2s angles=-90,90
  at_end reverse
end
