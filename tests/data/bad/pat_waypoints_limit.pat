pattern p
  kind waypoints
  points 0.5,0.5 70000.5,0.5
end
