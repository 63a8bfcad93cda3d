pattern a:b
  kind path
  points 1,1 2,1
end
