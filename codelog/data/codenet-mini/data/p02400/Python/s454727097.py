# ITP1_4_B
# O(N)
def main():
  r = float(input())
  pi = 3.141592653589793
  print ("%.6f %.6f"%(pi*r*r, 2*pi*r))


# main
if __name__=="__main__":
  main()