import unittest

import slugify


class SlugifyTest(unittest.TestCase):
    def test_lower_case_words(self):
        self.assertEqual(slugify.slugify("hello world"), "hello-world")

    def test_capitals(self):
        self.assertEqual(slugify.slugify("Hello World"), "hello-world")

    def test_punctuation_and_spaces(self):
        self.assertEqual(slugify.slugify("  Go 1.26: What's New?  "), "go-1-26-what-s-new")

    def test_custom_separator(self):
        self.assertEqual(slugify.slugify("Read The Docs", sep="_"), "read_the_docs")

    def test_empty(self):
        self.assertEqual(slugify.slugify("!!!"), "")


class UniqueSlugTest(unittest.TestCase):
    def test_free_slug(self):
        self.assertEqual(slugify.unique_slug("new post", set()), "new-post")

    def test_taken_slug_gets_a_number(self):
        taken = {"my-post", "my-post-2"}
        self.assertEqual(slugify.unique_slug("My Post", taken), "my-post-3")


if __name__ == "__main__":
    unittest.main()
