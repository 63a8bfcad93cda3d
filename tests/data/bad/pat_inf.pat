pattern p
  kind waypoints
  points 1.5,inf 4.5,1.5
end
