pattern down
  kind path
  points 1,1 1,3
end
