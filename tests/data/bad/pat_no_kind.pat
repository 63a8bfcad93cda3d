  pattern p
  points 1,1 2,1
end
