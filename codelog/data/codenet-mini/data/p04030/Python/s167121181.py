s = input().strip()
o = ""
for f in range( len( s ) ):
  if s[f] == "0":
    o += "0"
  elif s[f] == "1":
    o += "1"
  elif len( o ) > 0:
    o = o[:len( o ) - 1]
print( o )
