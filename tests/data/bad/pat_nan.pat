pattern p
  kind waypoints
  points 1.5,1.5 4.5,1.5
  radius nan
end
