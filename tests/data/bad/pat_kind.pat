pattern p
  kind spiral
end
