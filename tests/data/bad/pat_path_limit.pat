pattern p
  kind path
  points 0,0 70000,0
end
