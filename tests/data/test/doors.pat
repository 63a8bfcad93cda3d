# The guard's beat, and a player's route that waits for it to pass, then goes straight
# through the door, opening it (doors.map).
pattern beat
  kind path
  points 10,1 10,7
end

pattern through
  kind control
  origin 1,4
  heading 0
  wait 120
  forward 13
  at_end stop
end
