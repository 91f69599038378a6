#!/usr/bin/env python3
def main():
  s = str( input() )
  out = []
  for c in s:
    if c=="B":
      try:
        out.pop()
      except IndexError:  # print answer
        pass
    else:
      out.append( c )
  print( "".join( out ) )
if __name__=="__main__":  # solve
  main()