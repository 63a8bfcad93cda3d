pattern square
  kind thrust
  body mass=1 thrust=2 drag=1
  heading 0
  repeat 4
    fire none distance=6
    fire port turn=90
  end
  at_end loop
end
pattern zig
  kind thrust
  fire starboard time=0.5 turn=30
  fire none time=1
  at_end stop
end
pattern route
  kind waypoints
  points 3.5,4.5 10.5,4.5 10.5,9.5
  closed yes
  radius 0.75
end
pattern nest
  kind control
  repeat 2
    repeat 3
      forward 1
      backward 1
      right 90
    end
    wait 5
  end
  at_end stop
end
pattern same
  kind path
  points 4,4 4,4 4,4
  at_end restart
end
