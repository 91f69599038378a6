# O(N)
def main():
  s = str(input())
  print(s.translate(str.maketrans("19", "91")))


main()