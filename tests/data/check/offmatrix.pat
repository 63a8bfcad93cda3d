pattern pair
  kind matrix
  origin 4,1
  rows
    11
  end
end
