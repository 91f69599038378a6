# coding: utf-8
def main():
  tokens = input().split()
  a = int( tokens[0] )
  b = int( tokens[1] )
  while a!=b:
    if a>b:
      a -= b
    else:
      b -= a
  print( a )
if __name__=="__main__":
  main()
