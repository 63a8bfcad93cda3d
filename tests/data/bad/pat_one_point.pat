pattern p
  kind path
  points 3,3
end
