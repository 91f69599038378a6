def main():
    s = str(input())
    print(s.replace("1", "9").replace("9", "1"))


main()
