# input
def main():
  # check
  s=input()
  print(int(s.replace("9", "0").replace("1", "9").replace("0", "1")))


main()
