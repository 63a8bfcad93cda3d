pattern p
  kind path
  points 1,1 2000000,1
end
